//===- poc/serialize/serializer.hpp - The Serializer extension point ------===//
//
// Declares poc::Serializer, the one customization point of the serialization
// library, and the concept that tells whether a type has one. Everything else
// (Writer::write, containers, pointers) dispatches through it.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <concepts>
#include <cstddef>

namespace poc {

class Writer;
class Reader;

/// How a value of type \p T is encoded. A specialization provides
/// \code
///   static void write(poc::Writer &, const T &);
///   static void read(poc::Reader &, T &);       // overwrites an existing T
///   static constexpr std::size_t min_size = N;  // optional, see below
/// \endcode
/// `min_size`, if present, is a lower bound on the number of message bytes
/// one encoded value occupies. Containers use it to reject a hostile element
/// count before allocating (a count that cannot fit in the rest of the
/// message). Leaving it out is always safe (the bound is then 0).
///
/// The library specializes it for arithmetic types, enums, standard
/// containers and utilities, pointers and classes with poc_write/poc_read
/// members; poc++ generates specializations for user classes. \p Enable is
/// for partial specializations selected with std::enable_if.
template <class T, class Enable = void> struct Serializer;

/// A type that poc::Serializer knows how to write and read.
template <class T>
concept Serializable = requires(Writer &w, Reader &r, const T &in, T &out) {
  Serializer<T>::write(w, in);
  Serializer<T>::read(r, out);
};

/// A class that serializes itself through its own members
/// `void poc_write(poc::Writer &) const` and `void poc_read(poc::Reader &)`.
template <class T>
concept HasSerializeMembers = requires(Writer &w, Reader &r, const T &in, T &out) {
  in.poc_write(w);
  out.poc_read(r);
};

namespace detail {
/// False, but only once \p T is known: for static_asserts in templates.
template <class T> inline constexpr bool dependent_false = false;

template <class T>
concept HasMinSize = requires {
  { Serializer<T>::min_size } -> std::convertible_to<std::size_t>;
};
template <class T> consteval std::size_t min_encoded_size() {
  if constexpr (HasMinSize<T>)
    return Serializer<T>::min_size;
  else
    return 0;
}
} // namespace detail

/// Lower bound on the encoded size of one \p T (Serializer<T>::min_size, or 0).
template <class T> inline constexpr std::size_t min_encoded_size_v = detail::min_encoded_size<T>();

} // namespace poc
