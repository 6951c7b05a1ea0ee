// The state of a persistent process, saved and restored through its class's
// PersistOps (<poc/gen/registration.hpp>): the generated code supplies the
// class's serializer; the record's format is persist::save_object's.

#include <poc/gen/registration.hpp>
#include <poc/persist/object.hpp>

namespace poc {

namespace detail {
namespace {
/// An object of a registered class, seen through its PersistOps.
struct ErasedState {
  const PersistOps *ops;
  void *object;
};
} // namespace
} // namespace detail

template <> struct Serializer<detail::ErasedState> {
  static void write(Writer &w, const detail::ErasedState &s) { s.ops->write(w, s.object); }
  static void read(Reader &r, detail::ErasedState &s) { s.ops->read(r, s.object); }
};

namespace detail {

void *PersistOps::restore(const persist::Store &store, const persist::Address &address,
                          std::string_view class_name) const {
  ErasedState state{this, make()};
  try {
    persist::load_object(store, address, class_name, layout_hash, state);
  } catch (...) {
    destroy(state.object);
    throw;
  }
  return state.object;
}

void PersistOps::save(const persist::Store &store, const persist::Address &address,
                      std::string_view class_name, const void *object) const {
  persist::save_object(store, address, class_name, layout_hash,
                       ErasedState{this, const_cast<void *>(object)});
}

} // namespace detail
} // namespace poc
