//===- poc/serialize/pointer.hpp - Pointers to classes --------------------===//
//
// A T* (T a class) is a tag byte:
//   0  null;
//   1  a reference to a process: its ProcessId follows. Written for a remote
//      reference and for a local object that is itself a process hosted
//      here; read back as the receiver's interned arena address for that
//      process (poc::reference_to);
//   2  a deep copy of a local object follows (object.hpp). The receiver
//      allocates it with new and owns it: poc++ frees the copies it makes
//      for method parameters; code that reads a T* itself must delete it.
// Reading into a T* overwrites the pointer; it never frees what the pointer
// pointed to before.
//
// Pointers to non-class data are rejected at compile time: an int* does not
// say how many ints it points to.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "poc/process_id.hpp"
#include "poc/serialize/errors.hpp"
#include "poc/serialize/object.hpp"
#include "poc/serialize/process_id.hpp"
#include "poc/serialize/reader.hpp"
#include "poc/serialize/serializer.hpp"
#include "poc/serialize/type_name.hpp"
#include "poc/serialize/writer.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <type_traits>
#include <typeinfo>

namespace poc {

template <class T> struct Serializer<T *> {
  static_assert(std::is_class_v<T>,
                "poc++ cannot serialize a pointer to non-class data (such as int*, "
                "char* or void*): the pointer does not say how many elements it "
                "points to. Use std::vector<T>, std::span<T>, std::string, or "
                "pass an explicit element count and the data separately");

  static constexpr std::size_t min_size = 1;

  static void write(Writer &w, T *const &p) {
    if (p == nullptr) {
      w.write_byte(detail::kNullPointer);
      return;
    }
    if (is_remote(p)) {
      w.write_byte(detail::kRemoteReference);
      w.write(remote_id(p));
      return;
    }
    const void *complete;
    if constexpr (std::is_polymorphic_v<T>)
      complete = dynamic_cast<const void *>(p);
    else
      complete = p;
    if (std::optional<ProcessId> id = hosted_id(complete)) {
      w.write_byte(detail::kRemoteReference);
      w.write(*id);
      return;
    }
    if constexpr (Serializable<std::remove_const_t<T>> || std::is_polymorphic_v<T>) {
      w.write_byte(detail::kInlineObject);
      detail::write_object(w, *p);
    } else {
      // Classes of processes need no Serializer as long as only references
      // to them are sent.
      throw encode_error("poc: cannot send a local object of class '" +
                         detail::type_name(typeid(T)) +
                         "' by value: the class has no poc::Serializer");
    }
  }

  static void read(Reader &r, T *&p) {
    std::uint8_t tag = r.read_byte();
    switch (tag) {
    case detail::kNullPointer:
      p = nullptr;
      return;
    case detail::kRemoteReference: {
      ProcessId id;
      r.read(id);
      p = static_cast<T *>(reference_to(id, sizeof(T)));
      return;
    }
    case detail::kInlineObject:
      p = detail::read_new_object<T>(r);
      return;
    default:
      r.fail("invalid pointer tag " + std::to_string(tag) + " (must be 0, 1 or 2)");
    }
  }
};

} // namespace poc
