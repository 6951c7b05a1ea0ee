//===- poc/serialize/bitwise.hpp - Types whose memory is their wire form --===//
//
// A type is bitwise serializable when its object representation equals its
// encoding, so arrays of it can be copied (or sent out of band) as one block
// instead of element by element.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "poc/serialize/endian.hpp"

#include <cstddef>
#include <type_traits>

namespace poc {

namespace detail {
template <class T> consteval bool default_bitwise() {
  if constexpr (std::is_array_v<T>)
    return default_bitwise<std::remove_extent_t<T>>();
  else if constexpr (std::is_enum_v<T>)
    return default_bitwise<std::underlying_type_t<T>>();
  else if constexpr (std::is_arithmetic_v<T>)
    // bool is excluded: any byte but 0 and 1 must be rejected, not copied
    // into a bool (undefined behaviour).
    return !std::is_same_v<T, bool> && (kNativeIsWire || sizeof(T) == 1);
  else
    return false;
}
} // namespace detail

/// True if \p T's object representation is its wire encoding: arithmetic
/// types except bool, enums over those, C arrays, std::array and
/// std::complex of such types. Containers of these types are encoded as one
/// block (and large ones travel out of band).
///
/// It may be specialized to std::true_type for a class whose Serializer
/// writes exactly the object's bytes: a trivially copyable class without
/// padding whose members are all bitwise serializable, written member by
/// member in declaration order (std::has_unique_object_representations_v
/// holds). Its vectors are then copied as one block.
template <class T>
struct is_bitwise_serializable : std::bool_constant<detail::default_bitwise<T>()> {};

template <class T>
inline constexpr bool is_bitwise_serializable_v = is_bitwise_serializable<T>::value;

} // namespace poc
