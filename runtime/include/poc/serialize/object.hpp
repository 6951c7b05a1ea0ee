//===- poc/serialize/object.hpp - Objects behind pointers -----------------===//
//
// The inline form of a pointer (tag 2) or smart pointer: for a polymorphic
// pointee, a varint-length name of the dynamic type (empty when it is the
// static type) and then the object; otherwise just the object.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "poc/serialize/errors.hpp"
#include "poc/serialize/reader.hpp"
#include "poc/serialize/serializer.hpp"
#include "poc/serialize/type_name.hpp"
#include "poc/serialize/type_registry.hpp"
#include "poc/serialize/writer.hpp"

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <typeinfo>

namespace poc::detail {

/// Tag bytes of pointers and smart pointers.
enum PointerTag : std::uint8_t {
  kNullPointer = 0,
  kRemoteReference = 1,
  kInlineObject = 2,
};

/// Writes the object \p obj, seen through static type \p T, with its
/// dynamic type.
template <class T> void write_object(Writer &w, const T &obj) {
  if constexpr (std::is_polymorphic_v<T>) {
    const std::type_info &dynamic = typeid(obj);
    if constexpr (Serializable<T>) {
      if (dynamic == typeid(T)) {
        w.write_size(0);
        w.write(obj);
        return;
      }
    }
    const TypeRegistry::Entry *e = TypeRegistry::find(dynamic);
    if (e == nullptr)
      throw encode_error("poc: cannot serialize an object of dynamic type '" + type_name(dynamic) +
                         "' through a pointer to '" + type_name(typeid(T)) +
                         "': its type is not registered (POC_REGISTER_TYPE)");
    if (e->write == nullptr)
      throw encode_error("poc: cannot serialize an object of type '" + e->name +
                         "': it has no poc::Serializer");
    w.write_size(e->name.size());
    w.write_bytes(e->name.data(), e->name.size());
    e->write(w, dynamic_cast<const void *>(&obj));
  } else {
    static_assert(Serializable<T>, "poc::Serializer<T> is not defined for the pointee type");
    w.write(obj);
  }
}

/// Allocates a plain \p T with new and decodes it; the caller owns it.
template <class T> T *read_new_static(Reader &r) {
  if constexpr (!std::is_abstract_v<T> && std::is_default_constructible_v<T> && Serializable<T>) {
    auto object = std::make_unique<T>();
    r.read(*object);
    return object.release();
  } else {
    r.fail("an object of type '" + type_name(typeid(T)) +
           "' cannot be received by value (abstract, not default constructible "
           "or without poc::Serializer)");
  }
}

/// Reads an object written by write_object<T> into a new allocation; the
/// caller owns the result. \p T may be const-qualified.
template <class T> std::remove_const_t<T> *read_new_object(Reader &r) {
  using U = std::remove_const_t<T>;
  Reader::NestingGuard nesting(r);
  if constexpr (std::is_polymorphic_v<U>) {
    std::size_t length = r.read_count(1);
    if (length == 0)
      return read_new_static<U>(r);
    std::span<const std::byte> bytes = r.read_view(length);
    std::string_view name(reinterpret_cast<const char *>(bytes.data()), bytes.size());
    const TypeRegistry::Entry *e = TypeRegistry::find(name);
    if (e == nullptr)
      r.fail("unknown polymorphic type '" + std::string(name) + "'");
    if (e->create == nullptr)
      r.fail("objects of type '" + std::string(name) +
             "' cannot be received by value (abstract, not default "
             "constructible or without poc::Serializer)");
    void *object = e->create(r);
    if (*e->type == typeid(U))
      return static_cast<U *>(object);
    try {
      e->throw_pointer(object);
    } catch (U *base) {
      return base;
    } catch (...) {
      // Not derived from U: the name does not fit the static type.
    }
    e->destroy(object);
    r.fail("type '" + std::string(name) + "' is not derived from '" + type_name(typeid(U)) + "'");
  } else {
    return read_new_static<U>(r);
  }
}

} // namespace poc::detail
