//===- serialize/type_registry.cpp - The polymorphic type table -----------===//
#include "poc/serialize/type_registry.hpp"
#include "poc/serialize/type_name.hpp"

#include <map>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <stdexcept>
#include <typeindex>
#include <unordered_map>
#include <vector>

namespace poc {

namespace {

struct Registry {
  std::shared_mutex mutex;
  // Entries never move or die once added, so lookups can hand out pointers.
  std::vector<std::unique_ptr<TypeRegistry::Entry>> entries;
  std::unordered_map<std::type_index, const TypeRegistry::Entry *> by_type;
  std::map<std::string, const TypeRegistry::Entry *, std::less<>> by_name;
};

// Function-local so that registrations from static initializers of any
// translation unit find it constructed.
Registry &registry() {
  static Registry instance;
  return instance;
}

} // namespace

void TypeRegistry::add_entry(Entry e) {
  Registry &reg = registry();
  std::unique_lock lock(reg.mutex);
  if (auto named = reg.by_name.find(e.name); named != reg.by_name.end()) {
    if (*named->second->type != *e.type)
      throw std::logic_error(
          "poc::TypeRegistry: the name '" + e.name + "' is registered for both '" +
          detail::type_name(*named->second->type) + "' and '" + detail::type_name(*e.type) + "'");
    return;
  }
  if (auto known = reg.by_type.find(*e.type); known != reg.by_type.end()) {
    reg.by_name.emplace(e.name, known->second); // an alias
    return;
  }
  auto entry = std::make_unique<Entry>(std::move(e));
  reg.by_type.emplace(*entry->type, entry.get());
  reg.by_name.emplace(entry->name, entry.get());
  reg.entries.push_back(std::move(entry));
}

const TypeRegistry::Entry *TypeRegistry::find(const std::type_info &type) noexcept {
  Registry &reg = registry();
  std::shared_lock lock(reg.mutex);
  auto it = reg.by_type.find(type);
  return it == reg.by_type.end() ? nullptr : it->second;
}

const TypeRegistry::Entry *TypeRegistry::find(std::string_view name) noexcept {
  Registry &reg = registry();
  std::shared_lock lock(reg.mutex);
  auto it = reg.by_name.find(name);
  return it == reg.by_name.end() ? nullptr : it->second;
}

} // namespace poc
