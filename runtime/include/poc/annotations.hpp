#pragma once
/// \file
/// Source annotations that poc++ reads from the declarations it compiles.

/// Marks a pointer parameter as an array whose element count is the value of
/// parameter `n` of the same function, e.g.
/// `void SetProcessGroup(int id, int n, T* const* POC_COUNT(n) group);`.
/// poc++ then sends the `n` pointed-to elements (for pointers to pointers: the
/// `n` references) instead of a single object. A plain C++ compiler ignores it.
#if defined(__clang__)
#define POC_COUNT(n) __attribute__((annotate("poc::count:" #n)))
#else
// Only poc++ (Clang) reads the annotation; other compilers would warn.
#define POC_COUNT(n)
#endif

/// Marks a class whose objects may be processes in code that never creates
/// one itself (`class POC_REMOTE PageServer { ... };`): calls through pointers
/// to it are then compiled as possibly remote even in a translation unit with
/// no `new(machine) PageServer`. Classes created with `new(machine)` in the
/// program and classes derived from poc::ProcessGroupMember need no mark.
#if defined(__clang__)
#define POC_REMOTE __attribute__((annotate("poc::remote")))
#else
#define POC_REMOTE
#endif
