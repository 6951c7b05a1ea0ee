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

/// Marks a method that never waits, written before its declaration
/// (`POC_NONBLOCKING void deliver(Batch b);`). A call of it that arrives
/// for an idle process, with no earlier request of the same caller queued
/// there, runs at once on the thread that received it, instead of being
/// handed to a thread of the process (docs/language.md, "Methods that never
/// wait"). Such a method must not wait: poc++ rejects a synchronous remote
/// call, a synchronous creation or deletion, a future's get()/wait(),
/// poc::sync() and poc::wait_until() in its body, and the runtime throws
/// poc::usage_error where it would wait anyway. It may start calls and
/// take short locks.
#if defined(__clang__)
#define POC_NONBLOCKING __attribute__((annotate("poc::nonblocking")))
#else
#define POC_NONBLOCKING
#endif
