#pragma once
/// \file
/// The class layout hash stored with a persistent process's state
/// (docs/persistence.md section 6), so that state saved by a program whose
/// class had other fields is refused instead of misread.

#include <concepts>
#include <cstdint>

namespace poc {

/// The layout hash of class `T`: `T::poc_layout_hash` if the class declares
/// one (a static constexpr std::uint64_t, e.g. the version of a class with its
/// own poc_write/poc_read), else 0 (no check). poc++ specializes this trait
/// for the classes it generates Serializers for.
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
