//===- poc/serialize/members.hpp - Classes that serialize themselves ------===//
#pragma once

#include "poc/serialize/reader.hpp"
#include "poc/serialize/serializer.hpp"
#include "poc/serialize/writer.hpp"

#include <type_traits>

namespace poc {

/// A class with `void poc_write(poc::Writer &) const` and
/// `void poc_read(poc::Reader &)` is encoded by them. poc_read overwrites
/// the object's state and must read exactly what poc_write wrote.
template <class T> struct Serializer<T, std::enable_if_t<HasSerializeMembers<T>>> {
  static void write(Writer &w, const T &v) { v.poc_write(w); }
  static void read(Reader &r, T &v) { v.poc_read(r); }
};

} // namespace poc
