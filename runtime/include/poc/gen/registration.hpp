#pragma once
/// \file
/// Registration of a class whose objects can be processes.

#include <poc/gen/layout_hash.hpp>
#include <poc/gen/method_id.hpp>
#include <poc/gen/request.hpp>
#include <poc/persist/object.hpp>
#include <poc/persistent.hpp>
#include <poc/process_group.hpp>
#include <poc/serialize/type_registry.hpp>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <type_traits>
#include <typeindex>
#include <typeinfo>

namespace poc {

namespace detail {

/// Saving and restoring the state of a persistent process of one class.
/// The class's own code is its poc::TypeRegistry entry (its Serializer, the
/// registration adds it); the store and the record's format are handled
/// once, by the runtime.
struct PersistOps {
  std::uint64_t layout_hash;
  /// The class, as registered in poc::TypeRegistry.
  const std::type_info *type;

  /// A new object whose state is loaded from the record at `address`;
  /// throws store_error as persist::load_object does.
  void *restore(const persist::Store &store, const persist::Address &address,
                std::string_view class_name) const;
  /// Saves the object's state as the record at `address`.
  void save(const persist::Store &store, const persist::Address &address,
            std::string_view class_name, const void *object) const;
};

/// The functions a process class is served by, as ClassRegistration makes
/// them, constant for each class.
struct ClassFunctions {
  std::size_t size;
  /// Runs constructor `ctor` with the request's arguments.
  void *(*construct)(std::uint64_t ctor, Request &rq);
  /// Serves method `method` on the object.
  void (*dispatch)(void *object, std::uint64_t method, Request &rq);
  /// Deletes the object. A destructor may throw (the memory is freed all
  /// the same, as for any delete-expression); the caller of delete gets it.
  void (*destroy)(void *object);
  /// The object's ProcessGroupMember base, for classes derived from it
  /// (barriers are abandoned when such a process fails); null otherwise.
  const ProcessGroupMember *(*group_member)(const void *object) noexcept;
  /// Persistence, or null if the class is not a PersistentClass.
  const PersistOps *persist;
  /// Registers the class in poc::TypeRegistry under a name.
  void (*add_type)(std::string name);
  /// The name of method `method` if it is marked POC_NONBLOCKING (its
  /// requests may run where they arrive), else null; null if the class
  /// marks none.
  const char *(*nonblocking)(std::uint64_t method) noexcept;
};

/// What a host needs to run processes of one class. Keyed by
/// `method_id(name)` on the wire: the same executable runs on every rank.
struct ClassInfo : ClassFunctions {
  std::string name;
  std::uint64_t key;
};

/// Adds a class; throws usage_error if another class has the same name.
void register_class(std::type_index type, const ClassInfo &info);

/// Adds the class `type` named `name` (its key is method_id(name)) to the
/// classes processes can have and to poc::TypeRegistry.
void register_class(std::type_index type, std::string_view name, const ClassFunctions &functions);
/// The class registered for `type`; throws usage_error if there is none.
const ClassInfo &class_info(std::type_index type);
/// The class registered under `key`, or nullptr.
const ClassInfo *find_class(std::uint64_t key) noexcept;
/// The class registered for `type`, or nullptr.
const ClassInfo *find_class(std::type_index type) noexcept;

/// Runs one method on an object of the class it was registered for.
using MethodInvoker = void (*)(void *object, Request &rq);
/// Adds method `method` of class `type` (see MethodRegistration).
void register_method(std::type_index type, std::uint64_t method, MethodInvoker invoke);
/// Runs method `method` of class `type` on `object` if one was registered;
/// false if none was. Servers call it for ids their own switch lacks.
bool invoke_registered_method(std::type_index type, std::uint64_t method, void *object,
                              Request &rq);

} // namespace detail

/// Makes one more method of class `T` callable on its processes: a
/// specialisation of a member function template. A class's server lists
/// the methods its class declares, but only the files that call a template
/// know which specialisations exist; poc++ registers each one there, and
/// since every host runs the same executable, every server finds it.
template <class T> class MethodRegistration {
public:
  MethodRegistration(std::uint64_t method, detail::MethodInvoker invoke) {
    detail::register_method(typeid(T), method, invoke);
  }
};

namespace detail {
/// The ProcessGroupMember base of an object of class `T`, or null if `T` has
/// none.
template <class T> constexpr auto group_member_of() noexcept {
  using Fn = const ProcessGroupMember *(*)(const void *) noexcept;
  if constexpr (std::is_convertible_v<T *, ProcessGroupMember *>)
    return Fn([](const void *object) noexcept -> const ProcessGroupMember * {
      return static_cast<const T *>(object);
    });
  else
    return Fn(nullptr);
}

/// The persistence of a PersistentClass `T`.
template <class T> inline constexpr PersistOps persist_ops{LayoutHash<T>::value, &typeid(T)};

/// The persistence of `T`, or null if it is not a PersistentClass.
template <class T> constexpr const PersistOps *persist_ops_of() noexcept {
  if constexpr (PersistentClass<T>)
    return &persist_ops<T>;
  else
    return nullptr;
}

/// `Server::nonblocking` if the server has one (poc++ generates it for a
/// class that marks a method POC_NONBLOCKING), else null.
template <class Server> constexpr auto nonblocking_of() noexcept {
  using Fn = const char *(*)(std::uint64_t) noexcept;
  if constexpr (requires { Server::nonblocking(std::uint64_t{}); })
    return Fn(&Server::nonblocking);
  else
    return Fn(nullptr);
}
} // namespace detail

/// Makes class `T` creatable as a process, served by `Server` (which has
/// static `dispatch(T&, std::uint64_t, Request&)` and
/// `construct(std::uint64_t, Request&)`). Define it as an inline variable so
/// it exists once per executable:
/// `inline const ::poc::ClassRegistration<ns::T, T_server> T_registration{"ns::T"};`
/// Also registers `T` under `name` in poc::TypeRegistry, so objects of the
/// class can travel through polymorphic pointers (a class without a
/// Serializer is registered without write/create functions).
template <class T, class Server> class ClassRegistration {
public:
  explicit ClassRegistration(std::string_view name) {
    detail::register_class(typeid(T), name, functions);
  }

private:
  static constexpr detail::ClassFunctions functions{
      sizeof(T),
      [](std::uint64_t ctor, Request &rq) -> void * { return Server::construct(ctor, rq); },
      [](void *object, std::uint64_t method, Request &rq) {
        Server::dispatch(*static_cast<T *>(object), method, rq);
      },
      [](void *object) { delete static_cast<T *>(object); },
      detail::group_member_of<T>(),
      detail::persist_ops_of<T>(),
      &TypeRegistry::add<T>,
      detail::nonblocking_of<Server>()};
};

} // namespace poc
