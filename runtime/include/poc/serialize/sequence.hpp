//===- poc/serialize/sequence.hpp - Sequence containers -------------------===//
//
// A sequence of non-bitwise elements is a varint count followed by the
// elements. std::vector of bitwise elements is a block instead (vector.hpp).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "poc/serialize/reader.hpp"
#include "poc/serialize/serializer.hpp"
#include "poc/serialize/writer.hpp"

#include <cstddef>
#include <deque>
#include <list>

namespace poc {

namespace detail {

/// Writes the count of \p c and then each element.
template <class C> void write_sequence(Writer &w, const C &c) {
  w.write_size(c.size());
  for (const auto &e : c)
    w.write(e);
}

/// Reads a count and then each element into \p c, reusing its elements (and
/// their capacity) where it already has some.
template <class C> void read_sequence(Reader &r, C &c) {
  using T = typename C::value_type;
  constexpr std::size_t min_size = min_encoded_size_v<T>;
  std::size_t n = r.read_count(min_size);
  if constexpr (min_size > 0) {
    // The count is bounded by the bytes left, so sizing up front is safe.
    c.resize(n);
    for (auto &e : c)
      r.read(e);
  } else {
    // Elements may encode to nothing, so the count is bounded only by
    // Limits::max_elements; grow as elements actually decode.
    c.clear();
    for (std::size_t i = 0; i < n; ++i)
      r.read(c.emplace_back());
  }
}

} // namespace detail

template <class T, class A> struct Serializer<std::deque<T, A>> {
  static constexpr std::size_t min_size = 1;
  static void write(Writer &w, const std::deque<T, A> &d) { detail::write_sequence(w, d); }
  static void read(Reader &r, std::deque<T, A> &d) { detail::read_sequence(r, d); }
};

template <class T, class A> struct Serializer<std::list<T, A>> {
  static constexpr std::size_t min_size = 1;
  static void write(Writer &w, const std::list<T, A> &l) { detail::write_sequence(w, l); }
  static void read(Reader &r, std::list<T, A> &l) { detail::read_sequence(r, l); }
};

} // namespace poc
