#pragma once
/// \file
/// How the runtime asks the C library to keep freed memory for reuse
/// (docs/runtime.md section 1, "Program start and end").

namespace poc::detail {

/// Large buffers come and go with every call: arguments, results and their
/// decoded copies, batches of dataflow records, the operands a node makes.
/// glibc's malloc serves a block of 128 KiB or more with fresh pages from
/// the system and returns the top of its heap at a free once more than
/// twice the largest such block is unused, so every large call paid its
/// page faults again: a 1 MiB dataflow operand between two ranks took
/// 2.35 ms per hop with a fifth of its cycles in page faults, and 0.58 ms
/// with freed memory kept. So, unless the environment sets malloc's
/// thresholds itself (GLIBC_TUNABLES with glibc.malloc.mmap_threshold or
/// glibc.malloc.trim_threshold, MALLOC_MMAP_THRESHOLD_,
/// MALLOC_TRIM_THRESHOLD_), blocks under 32 MiB (glibc's largest
/// threshold) come from the heap and up to 64 MiB of free heap top is kept.
/// Blocks of 32 MiB and more are still mapped and unmapped one by one.
void keep_freed_memory() noexcept;

} // namespace poc::detail
