#pragma once
/// \file
/// Persistent processes (the paper's section 3.3, docs/runtime.md
/// "Persistence"): processes whose state lives in the object store under a
/// symbolic address such as "data/set/PageDevice/34" and outlives the job.
/// Creating one is <poc/gen/create.hpp>'s make_persistent, which poc++ emits
/// for `new(poc::persistent_at(m, address)) T(args)`.

#include <poc/errors.hpp>
#include <poc/machine.hpp>
#include <poc/serialize.hpp>

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <typeindex>
#include <typeinfo>

namespace poc {

/// A class whose processes can be persistent (poc::persistent<T>): its state
/// is written and read by poc::Serializer<T>, and activation default-
/// constructs the object before loading the state into it.
template <class T>
concept PersistentClass = Serializable<T> && std::is_default_constructible_v<T>;

namespace detail {

/// Activates the persistent process at `address` of the registered class
/// `type` on machine `m` (or finds it active); nullptr if the store has no
/// record there.
void *activate_persistent(std::type_index type, const machine &m, std::string_view address,
                          std::size_t min_bytes);

/// Saves the state of the persistent process `p` between two of its methods
/// and waits until the save has completed.
void checkpoint_process(const void *p);

/// The machine persistent<T>(address) places processes on: every host of
/// the job.
const machine &any_machine();

template <class T> constexpr void check_persistent_class() {
  static_assert(PersistentClass<T>,
                "poc::persistent<T> needs a class whose state poc::Serializer<T> can write and "
                "read (poc++ generates one; or give the class poc_write/poc_read members) and "
                "that is default constructible");
}

} // namespace detail

/// The persistent process of class `T` at `address` (e.g.
/// "data/set/PageDevice/34", an optional "poc://" prefix is dropped): the
/// same reference for every caller in the job while it is active;
/// otherwise the runtime activates it on a host of `m` (the host is chosen
/// from the address, so every caller names the same one): it default-
/// constructs a `T`, loads the stored state into it and holds the object's
/// lease. Returns nullptr if the store holds no object at `address`.
/// Throws persist::store_error (as remote_error) for a damaged record, a
/// record of another class or layout, or an object active in another
/// program; usage_error for an invalid address.
template <class T> T *persistent(const machine &m, std::string_view address) {
  detail::check_persistent_class<T>();
  return static_cast<T *>(detail::activate_persistent(typeid(T), m, address, sizeof(T)));
}

/// persistent<T>(m, address) on any host of the job.
template <class T> T *persistent(std::string_view address) {
  return persistent<T>(detail::any_machine(), address);
}

/// Where `new(poc::persistent_at(m, address)) T(args)` creates a process:
/// a new persistent process at `address` on machine `m` (any host of the
/// job if no machine is given). poc++ rewrites that expression to
/// make_persistent<T> with the constructor's id, so the constructor is
/// chosen by ordinary overload resolution, as for `new(m) T(args)`.
class persistent_at {
public:
  /// On any host of the job. Explicit, like the next one, so that
  /// `new(text) T` still means a machine.
  explicit persistent_at(std::string_view address) : address_(address) {}
  /// On a host of machine `m`.
  explicit persistent_at(machine m, std::string_view address)
      : where_(std::move(m)), address_(address) {}

  /// The machine to create the process on.
  const machine &where() const { return where_ ? *where_ : detail::any_machine(); }
  /// The address, as written (validated by the runtime).
  const std::string &address() const noexcept { return address_; }

private:
  std::optional<machine> where_;
  std::string address_;
};

/// Saves the state of persistent process `p` now: queued like a method
/// call, so the state is the one between two methods; returns when the
/// save is durable. Throws remote_error if `p` is not persistent or the
/// save failed.
template <class T> void checkpoint(T *p) { detail::checkpoint_process(p); }

} // namespace poc

/// `new(poc::persistent_at(...)) T(args)` parses as ordinary C++ so that poc++
/// can rewrite it; compiled without poc++ it throws `poc::usage_error`.
inline void *operator new(std::size_t, const poc::persistent_at &at) {
  throw poc::usage_error("poc: new(poc::persistent_at(\"" + at.address() +
                         "\")) needs a program compiled with poc++");
}
/// Matching placement deallocation (never called: the allocation throws).
inline void operator delete(void *, const poc::persistent_at &) noexcept {}
