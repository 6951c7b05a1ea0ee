//===- poc/serialize/limits.hpp - Bounds on what a Reader accepts ----------===//
//
// A corrupted or hostile length prefix must never make the receiver allocate
// gigabytes or recurse until the stack overflows. Every Reader checks counts
// and sizes against these limits *before* allocating.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstddef>

namespace poc {

/// Decoding limits. Counts of inline data are additionally bounded by the
/// bytes left in the message (see Reader::read_count), so these limits
/// matter for out-of-band blocks, for elements that encode to zero bytes and
/// for nesting depth.
struct Limits {
  /// Largest message a Reader accepts (and the transport should receive).
  /// 2 GiB - 1: an MPI count is an int.
  std::size_t max_message_bytes = (std::size_t{1} << 31) - 1;
  /// Largest single out-of-band block (one vector or string of trivially
  /// copyable data), checked before the receiver allocates memory for it.
  /// A BlockSource that knows the next block's size checks it exactly.
  std::size_t max_block_bytes = std::size_t{1} << 32;
  /// Largest element count of one container.
  std::size_t max_elements = std::size_t{1} << 26;
  /// Deepest nesting of containers and pointers (a linked list through
  /// unique_ptr nests one level per node). Bounds the reader's recursion.
  std::size_t max_depth = 1000;
};

/// The limits a Reader uses when none are passed to its constructor.
const Limits &default_limits() noexcept;

/// Replaces the default limits. Not synchronized with running Readers: call it
/// at start-up, before messages flow.
void set_default_limits(const Limits &limits) noexcept;

} // namespace poc
