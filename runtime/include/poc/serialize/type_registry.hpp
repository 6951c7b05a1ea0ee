//===- poc/serialize/type_registry.hpp - Polymorphic types by name --------===//
//
// An object sent through a pointer (or smart pointer) to a polymorphic base
// must be re-created with its dynamic type on the receiving side. The
// message then carries the dynamic type's registered name, and the registry
// maps names to functions that create, read and write objects of that type.
//
// poc++ registers every user class it generates a Serializer for. A
// hand-written class sent through a base pointer is registered with
// POC_REGISTER_TYPE(ns::Derived) at global scope in a header, next to its
// Serializer.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "poc/serialize/reader.hpp"
#include "poc/serialize/serializer.hpp"
#include "poc/serialize/writer.hpp"

#include <memory>
#include <string>
#include <string_view>
#include <type_traits>
#include <typeinfo>

namespace poc {

/// Process-wide map between C++ types and the names that identify them in
/// messages. Registration normally happens during static initialization;
/// lookups are thread-safe and may run concurrently with registration.
class TypeRegistry {
public:
  /// What the serializer can do with objects of one registered type. The
  /// functions are null where the type does not support the operation.
  struct Entry {
    /// Name written into messages (the first name the type was registered
    /// under; later names are aliases accepted on reading).
    std::string name;
    const std::type_info *type;
    /// Encodes the object at \p object, the address of a complete object of
    /// this type. Null if the type has no Serializer.
    void (*write)(Writer &w, const void *object);
    /// Allocates an object of this type with new and decodes it; the caller
    /// owns the result. Null if the type is abstract, not default
    /// constructible, or has no Serializer.
    void *(*create)(Reader &r);
    /// Deletes an object made by create.
    void (*destroy)(void *object);
    /// Throws the object as a pointer to this type. A catch clause for a
    /// pointer to any public base then performs the derived-to-base
    /// conversion, which cannot be done from a void* otherwise.
    void (*throw_pointer)(void *object);
  };

  /// Registers \p T under \p name. Registering the same type and name again
  /// has no effect; another name for the same type becomes an alias. Throws
  /// std::logic_error if \p name already names a different type.
  template <class T> static void add(std::string name) {
    static_assert(std::is_class_v<T>, "poc::TypeRegistry registers class types");
    add_functions(name, functions<T>);
  }

  /// The entry for \p type, or null if it is not registered.
  static const Entry *find(const std::type_info &type) noexcept;
  /// The entry registered under \p name (or an alias), or null.
  static const Entry *find(std::string_view name) noexcept;

private:
  /// The functions of an Entry for type T.
  struct Functions {
    const std::type_info *type;
    void (*write)(Writer &w, const void *object);
    void *(*create)(Reader &r);
    void (*destroy)(void *object);
    void (*throw_pointer)(void *object);
  };
  template <class T> static constexpr Functions functions_of() {
    Functions f{&typeid(T), nullptr, nullptr, nullptr, nullptr};
    if constexpr (Serializable<T>) {
      f.write = [](Writer &w, const void *object) { w.write(*static_cast<const T *>(object)); };
      if constexpr (!std::is_abstract_v<T> && std::is_default_constructible_v<T>) {
        f.create = [](Reader &r) -> void * {
          auto object = std::make_unique<T>();
          r.read(*object);
          return object.release();
        };
        f.destroy = [](void *object) { delete static_cast<T *>(object); };
        f.throw_pointer = [](void *object) { throw static_cast<T *>(object); };
      }
    }
    return f;
  }
  /// The functions of type T, a constant: add<T> is then one call, and the
  /// making of the entry (its name moved in, destroyed if adding throws) is
  /// compiled once.
  template <class T> static constexpr Functions functions = functions_of<T>();

  [[gnu::noinline]] static void add_functions(std::string &name, const Functions &f) {
    add_entry(Entry{std::move(name), f.type, f.write, f.create, f.destroy, f.throw_pointer});
  }
  static void add_entry(Entry e);
};

/// Registers \p T when constructed; POC_REGISTER_TYPE defines one.
template <class T> struct TypeRegistration {
  explicit TypeRegistration(const char *name) { TypeRegistry::add<T>(name); }
};

/// One registration per registered type, defined by POC_REGISTER_TYPE.
template <class T> extern const TypeRegistration<T> type_registration;

} // namespace poc

/// Registers a class for polymorphic serialization under its name as
/// written, e.g. POC_REGISTER_TYPE(shapes::Circle): spell it fully qualified,
/// as poc++ does. Use at global scope, in a header or a source file: the
/// registration is an inline variable, so it exists once per program however
/// many translation units see it.
#define POC_REGISTER_TYPE(...)                                                                     \
  template <>                                                                                      \
  inline const ::poc::TypeRegistration<__VA_ARGS__> poc::type_registration<__VA_ARGS__> {          \
    #__VA_ARGS__                                                                                   \
  }
