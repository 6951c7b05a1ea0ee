//===- poc/serialize/smart_pointer.hpp - unique_ptr and shared_ptr --------===//
//
// Smart pointers are deep: a tag byte, 0 (null) or 2 (an object follows, in
// the inline form of object.hpp, with the dynamic type's name for
// polymorphic pointees). Tag 1 (a process reference) is malformed here: a
// smart pointer owns a local object.
//
// shared_ptr identity is not preserved: two shared_ptrs to one object in a
// message arrive as two separate objects, and cycles of shared_ptrs do not
// terminate. A polymorphic class received through unique_ptr<Base> or
// shared_ptr<Base> needs a virtual destructor, as for any delete through a
// base pointer.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "poc/serialize/object.hpp"
#include "poc/serialize/reader.hpp"
#include "poc/serialize/serializer.hpp"
#include "poc/serialize/writer.hpp"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>

namespace poc {

namespace detail {
/// Reads a smart pointer's tag; true if an object follows.
inline bool read_owner_tag(Reader &r) {
  std::uint8_t tag = r.read_byte();
  if (tag == kNullPointer)
    return false;
  if (tag == kInlineObject)
    return true;
  if (tag == kRemoteReference)
    r.fail("a process reference cannot be received into a unique_ptr or shared_ptr");
  r.fail("invalid pointer tag " + std::to_string(tag) + " (must be 0 or 2)");
}
} // namespace detail

template <class T> struct Serializer<std::unique_ptr<T>> {
  static_assert(!std::is_array_v<T>,
                "a std::unique_ptr<T[]> does not know its length: use std::vector<T>");
  static constexpr std::size_t min_size = 1;

  static void write(Writer &w, const std::unique_ptr<T> &p) {
    if (!p) {
      w.write_byte(detail::kNullPointer);
      return;
    }
    w.write_byte(detail::kInlineObject);
    detail::write_object(w, *p);
  }

  static void read(Reader &r, std::unique_ptr<T> &p) {
    if (detail::read_owner_tag(r))
      p.reset(detail::read_new_object<T>(r));
    else
      p.reset();
  }
};

template <class T> struct Serializer<std::shared_ptr<T>> {
  static_assert(!std::is_array_v<T>,
                "a std::shared_ptr<T[]> does not know its length: use std::vector<T>");
  static constexpr std::size_t min_size = 1;

  static void write(Writer &w, const std::shared_ptr<T> &p) {
    if (!p) {
      w.write_byte(detail::kNullPointer);
      return;
    }
    w.write_byte(detail::kInlineObject);
    detail::write_object(w, *p);
  }

  static void read(Reader &r, std::shared_ptr<T> &p) {
    if (detail::read_owner_tag(r))
      p.reset(detail::read_new_object<T>(r));
    else
      p.reset();
  }
};

} // namespace poc
