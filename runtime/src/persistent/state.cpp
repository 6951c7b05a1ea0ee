// The state of a persistent process, saved and restored through its class's
// poc::TypeRegistry entry (<poc/gen/registration.hpp>, PersistOps): the
// generated code supplies the class's serializer; the record's format is
// persist::save_object's.

#include <poc/errors.hpp>
#include <poc/gen/registration.hpp>
#include <poc/persist/object.hpp>

#include <string>

namespace poc {

namespace detail {
namespace {
/// The state of an object of a registered class: written from `object`,
/// or read into a new object that `object` then holds.
struct ErasedState {
  const TypeRegistry::Entry *entry;
  void *object;
};

const TypeRegistry::Entry &entry_of(const PersistOps &ops) {
  const TypeRegistry::Entry *e = TypeRegistry::find(*ops.type);
  if (!e || !e->write || !e->create)
    throw usage_error(std::string("poc: class ") + (e ? e->name : ops.type->name()) +
                      " has no registered serializer for its persistent state");
  return *e;
}
} // namespace
} // namespace detail

template <> struct Serializer<detail::ErasedState> {
  static void write(Writer &w, const detail::ErasedState &s) { s.entry->write(w, s.object); }
  static void read(Reader &r, detail::ErasedState &s) { s.object = s.entry->create(r); }
};

namespace detail {

void *PersistOps::restore(const persist::Store &store, const persist::Address &address,
                          std::string_view class_name) const {
  ErasedState state{&entry_of(*this), nullptr};
  try {
    persist::load_object(store, address, class_name, layout_hash, state);
  } catch (...) {
    if (state.object)
      state.entry->destroy(state.object);
    throw;
  }
  return state.object;
}

void PersistOps::save(const persist::Store &store, const persist::Address &address,
                      std::string_view class_name, const void *object) const {
  persist::save_object(store, address, class_name, layout_hash,
                       ErasedState{&entry_of(*this), const_cast<void *>(object)});
}

} // namespace detail
} // namespace poc
