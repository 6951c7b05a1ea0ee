//===- poc/serialize/tuple.hpp - std::pair and std::tuple -----------------===//
//
// Product types are their members in order, with nothing in between.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "poc/serialize/reader.hpp"
#include "poc/serialize/serializer.hpp"
#include "poc/serialize/writer.hpp"

#include <cstddef>
#include <tuple>
#include <utility>

namespace poc {

template <class A, class B> struct Serializer<std::pair<A, B>> {
  static constexpr std::size_t min_size = min_encoded_size_v<A> + min_encoded_size_v<B>;
  static void write(Writer &w, const std::pair<A, B> &p) {
    w.write(p.first);
    w.write(p.second);
  }
  static void read(Reader &r, std::pair<A, B> &p) {
    r.read(p.first);
    r.read(p.second);
  }
};

template <class... T> struct Serializer<std::tuple<T...>> {
  static constexpr std::size_t min_size = (std::size_t{0} + ... + min_encoded_size_v<T>);
  static void write(Writer &w, const std::tuple<T...> &t) {
    std::apply([&w](const T &...e) { w.write_all(e...); }, t);
  }
  static void read(Reader &r, std::tuple<T...> &t) {
    std::apply([&r](T &...e) { r.read_all(e...); }, t);
  }
};

} // namespace poc
