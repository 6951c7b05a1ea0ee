//===- poc/serialize/span.hpp - std::span (send only) ---------------------===//
//
// A span is written exactly like a std::vector of its elements, so a method
// can take std::vector<T> on the receiving side of a span argument. It
// cannot be read: a span owns no storage, and the decoded elements would
// have nowhere to live once the message buffer is released.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "poc/serialize/bitwise.hpp"
#include "poc/serialize/reader.hpp"
#include "poc/serialize/sequence.hpp"
#include "poc/serialize/serializer.hpp"
#include "poc/serialize/writer.hpp"

#include <cstddef>
#include <span>
#include <type_traits>

namespace poc {

template <class T, std::size_t Extent> struct Serializer<std::span<T, Extent>> {
  using Element = std::remove_cv_t<T>;
  static constexpr std::size_t min_size = 1;

  static void write(Writer &w, const std::span<T, Extent> &s) {
    if constexpr (is_bitwise_serializable_v<Element>)
      w.write_block(s.data(), s.size_bytes());
    else
      detail::write_sequence(w, s);
  }

  template <class V = void> static void read(Reader &, std::span<T, Extent> &) {
    static_assert(detail::dependent_false<V>,
                  "a std::span cannot be deserialized: it owns no storage. "
                  "Receive a std::vector<T> (same wire format) instead");
  }
};

} // namespace poc
