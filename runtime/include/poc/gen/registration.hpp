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
struct PersistOps {
  std::uint64_t layout_hash;
  /// A new object (with new) whose state is loaded from the record at
  /// `address`; throws store_error as persist::load_object does.
  void *(*restore)(const persist::Store &store, const persist::Address &address,
                   std::string_view class_name);
  /// Saves the object's state as the record at `address`.
  void (*save)(const persist::Store &store, const persist::Address &address,
               std::string_view class_name, const void *object);
};

/// What a host needs to run processes of one class. Keyed by
/// `method_id(name)` on the wire: the same executable runs on every rank.
struct ClassInfo {
  std::string name;
  std::uint64_t key;
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
};

/// Adds a class; throws usage_error if another class has the same name.
void register_class(std::type_index type, const ClassInfo &info);
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
    TypeRegistry::add<T>(std::string(name));
    detail::register_class(
        typeid(T), detail::ClassInfo{std::string(name), method_id(name), sizeof(T),
                                     [](std::uint64_t ctor, Request &rq) -> void * {
                                       return Server::construct(ctor, rq);
                                     },
                                     [](void *object, std::uint64_t method, Request &rq) {
                                       Server::dispatch(*static_cast<T *>(object), method, rq);
                                     },
                                     [](void *object) { delete static_cast<T *>(object); },
                                     group_member_of(), persist_ops_of()});
  }

private:
  static auto group_member_of() noexcept -> const ProcessGroupMember *(*)(const void *) noexcept {
    if constexpr (std::is_convertible_v<T *, ProcessGroupMember *>)
      return [](const void *object) noexcept -> const ProcessGroupMember * {
        return static_cast<const T *>(object);
      };
    else
      return nullptr;
  }

  static const detail::PersistOps *persist_ops_of() noexcept {
    if constexpr (PersistentClass<T>) {
      static constexpr detail::PersistOps ops{
          LayoutHash<T>::value,
          [](const persist::Store &store, const persist::Address &address,
             std::string_view class_name) -> void * {
            auto object = std::make_unique<T>();
            persist::load_object(store, address, class_name, LayoutHash<T>::value, *object);
            return object.release();
          },
          [](const persist::Store &store, const persist::Address &address,
             std::string_view class_name, const void *object) {
            persist::save_object(store, address, class_name, LayoutHash<T>::value,
                                 *static_cast<const T *>(object));
          }};
      return &ops;
    } else {
      return nullptr;
    }
  }
};

} // namespace poc
