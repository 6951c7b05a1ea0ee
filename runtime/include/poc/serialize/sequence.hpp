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
  Reader::NestingGuard nesting(r);
  std::size_t n = r.read_count(min_encoded_size_v<T>);
  // Size the container for the elements that can be in the message, taking
  // each as at least one byte: that bounds the allocation by the message
  // size even when T's minimum size is unknown (0), and needs no regrowth
  // for real data. Only elements that encode to nothing can exceed it, and
  // those are appended one by one (n is bounded by Limits::max_elements).
  std::size_t upfront = n < r.remaining() ? n : r.remaining();
  c.resize(upfront);
  for (auto &e : c)
    r.read(e);
  for (std::size_t i = upfront; i < n; ++i)
    r.read(c.emplace_back());
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
