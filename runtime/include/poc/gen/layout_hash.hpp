#pragma once
/// \file
/// The class layout hash stored with a persistent process's state
/// (docs/persistence.md section 6), so that state saved by a program whose
/// class had other fields is refused instead of misread.

#include <poc/gen/method_id.hpp>

#include <concepts>
#include <cstdint>
#include <string_view>

namespace poc {

/// The hash of a canonical layout description such as
/// `"ns::T{int a;std::vector<ns::P> b;}ns::P{double x;}"` (the class, then
/// every user class its state reaches): FNV-1a 64, as for method ids.
/// poc++ writes the description into the generated code, so a reader of the
/// generated file sees what a stored record is checked against.
constexpr std::uint64_t layout_hash(std::string_view canonical_layout) noexcept {
  return method_id(canonical_layout);
}

/// The layout hash of class `T`: `T::poc_layout_hash` if the class declares
/// one (a static constexpr std::uint64_t, e.g. the version of a class with its
/// own poc_write/poc_read), else 0 (no check). poc++ specializes this trait,
/// with `layout_hash` of the class's field list, for every class it
/// generates a Serializer for.
template <class T> struct LayoutHash {
  static constexpr std::uint64_t value = [] {
    if constexpr (requires {
                    { T::poc_layout_hash } -> std::convertible_to<std::uint64_t>;
                  })
      return static_cast<std::uint64_t>(T::poc_layout_hash);
    else
      return std::uint64_t{0};
  }();
};

} // namespace poc
