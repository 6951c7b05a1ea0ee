//===- poc/serialize/associative.hpp - Maps and sets ----------------------===//
//
// A map is a varint count followed by key, value, key, value, ...; a set a
// count followed by the keys, in iteration order. A duplicate key in a map
// or set with unique keys is malformed input. Comparators and hashers are
// not transmitted: the receiver's type supplies them.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "poc/serialize/reader.hpp"
#include "poc/serialize/serializer.hpp"
#include "poc/serialize/writer.hpp"

#include <cstddef>
#include <map>
#include <set>
#include <unordered_map>
#include <unordered_set>
#include <utility>

namespace poc {

namespace detail {

template <class M> void write_map(Writer &w, const M &m) {
  w.write_size(m.size());
  for (const auto &[key, value] : m) {
    w.write(key);
    w.write(value);
  }
}

template <class S> void write_set(Writer &w, const S &s) {
  w.write_size(s.size());
  for (const auto &key : s)
    w.write(key);
}

/// Inserts a decoded element. Ordered containers are written in order, so
/// hinting at the end makes each insertion amortized constant time.
template <class C, class... Args> void insert_decoded(C &c, Args &&...args) {
  if constexpr (requires { c.emplace_hint(c.end(), std::forward<Args>(args)...); }) {
    c.emplace_hint(c.end(), std::forward<Args>(args)...);
  } else {
    c.emplace(std::forward<Args>(args)...);
  }
}

template <bool UniqueKeys, class M> void read_map(Reader &r, M &m) {
  using Key = typename M::key_type;
  using Value = typename M::mapped_type;
  Reader::NestingGuard nesting(r);
  std::size_t n = r.read_count(min_encoded_size_v<Key> + min_encoded_size_v<Value>);
  m.clear();
  if constexpr (requires { m.reserve(n); })
    m.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    Key key{};
    r.read(key);
    Value value{};
    r.read(value);
    insert_decoded(m, std::move(key), std::move(value));
    if (UniqueKeys && m.size() != i + 1)
      r.fail("duplicate key in a map");
  }
}

template <bool UniqueKeys, class S> void read_set(Reader &r, S &s) {
  using Key = typename S::key_type;
  Reader::NestingGuard nesting(r);
  std::size_t n = r.read_count(min_encoded_size_v<Key>);
  s.clear();
  if constexpr (requires { s.reserve(n); })
    s.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    Key key{};
    r.read(key);
    insert_decoded(s, std::move(key));
    if (UniqueKeys && s.size() != i + 1)
      r.fail("duplicate key in a set");
  }
}

} // namespace detail

template <class K, class V, class C, class A> struct Serializer<std::map<K, V, C, A>> {
  static constexpr std::size_t min_size = 1;
  static void write(Writer &w, const std::map<K, V, C, A> &m) { detail::write_map(w, m); }
  static void read(Reader &r, std::map<K, V, C, A> &m) { detail::read_map<true>(r, m); }
};

template <class K, class V, class C, class A> struct Serializer<std::multimap<K, V, C, A>> {
  static constexpr std::size_t min_size = 1;
  static void write(Writer &w, const std::multimap<K, V, C, A> &m) { detail::write_map(w, m); }
  static void read(Reader &r, std::multimap<K, V, C, A> &m) { detail::read_map<false>(r, m); }
};

template <class K, class V, class H, class E, class A>
struct Serializer<std::unordered_map<K, V, H, E, A>> {
  static constexpr std::size_t min_size = 1;
  static void write(Writer &w, const std::unordered_map<K, V, H, E, A> &m) {
    detail::write_map(w, m);
  }
  static void read(Reader &r, std::unordered_map<K, V, H, E, A> &m) {
    detail::read_map<true>(r, m);
  }
};

template <class K, class V, class H, class E, class A>
struct Serializer<std::unordered_multimap<K, V, H, E, A>> {
  static constexpr std::size_t min_size = 1;
  static void write(Writer &w, const std::unordered_multimap<K, V, H, E, A> &m) {
    detail::write_map(w, m);
  }
  static void read(Reader &r, std::unordered_multimap<K, V, H, E, A> &m) {
    detail::read_map<false>(r, m);
  }
};

template <class K, class C, class A> struct Serializer<std::set<K, C, A>> {
  static constexpr std::size_t min_size = 1;
  static void write(Writer &w, const std::set<K, C, A> &s) { detail::write_set(w, s); }
  static void read(Reader &r, std::set<K, C, A> &s) { detail::read_set<true>(r, s); }
};

template <class K, class C, class A> struct Serializer<std::multiset<K, C, A>> {
  static constexpr std::size_t min_size = 1;
  static void write(Writer &w, const std::multiset<K, C, A> &s) { detail::write_set(w, s); }
  static void read(Reader &r, std::multiset<K, C, A> &s) { detail::read_set<false>(r, s); }
};

template <class K, class H, class E, class A> struct Serializer<std::unordered_set<K, H, E, A>> {
  static constexpr std::size_t min_size = 1;
  static void write(Writer &w, const std::unordered_set<K, H, E, A> &s) { detail::write_set(w, s); }
  static void read(Reader &r, std::unordered_set<K, H, E, A> &s) { detail::read_set<true>(r, s); }
};

template <class K, class H, class E, class A>
struct Serializer<std::unordered_multiset<K, H, E, A>> {
  static constexpr std::size_t min_size = 1;
  static void write(Writer &w, const std::unordered_multiset<K, H, E, A> &s) {
    detail::write_set(w, s);
  }
  static void read(Reader &r, std::unordered_multiset<K, H, E, A> &s) {
    detail::read_set<false>(r, s);
  }
};

} // namespace poc
