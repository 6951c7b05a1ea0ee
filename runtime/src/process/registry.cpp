// The registry of classes whose objects can be processes.

#include <poc/errors.hpp>
#include <poc/gen/registration.hpp>

#include <mutex>
#include <unordered_map>

namespace poc::detail {
namespace {

struct Registry {
  std::mutex mu;
  std::unordered_map<std::type_index, ClassInfo> by_type;
  std::unordered_map<std::uint64_t, const ClassInfo *> by_key;
  /// Methods registered one by one (MethodRegistration), per class.
  std::unordered_map<std::type_index, std::unordered_map<std::uint64_t, MethodInvoker>> methods;
};

Registry &registry() {
  static Registry r;
  return r;
}

} // namespace

void register_class(std::type_index type, const ClassInfo &info) {
  Registry &r = registry();
  std::lock_guard<std::mutex> g(r.mu);
  auto [it, inserted] = r.by_type.emplace(type, info);
  if (!inserted)
    return; // the same class registered from several translation units
  auto [k, fresh] = r.by_key.emplace(info.key, &it->second);
  if (!fresh && k->second->name != info.name)
    throw usage_error("poc: classes '" + k->second->name + "' and '" + info.name +
                      "' have the same registration key");
}

void register_class(std::type_index type, std::string_view name, const ClassFunctions &f) {
  std::string text(name);
  f.add_type(text);
  register_class(type, ClassInfo{f, text, method_id(name)});
}

const ClassInfo *find_class(std::type_index type) noexcept {
  Registry &r = registry();
  std::lock_guard<std::mutex> g(r.mu);
  auto it = r.by_type.find(type);
  return it == r.by_type.end() ? nullptr : &it->second;
}

const ClassInfo &class_info(std::type_index type) {
  if (const ClassInfo *info = find_class(type))
    return *info;
  throw usage_error(std::string("poc: class ") + type.name() +
                    " is not registered as a process class (poc::ClassRegistration)");
}

void register_method(std::type_index type, std::uint64_t method, MethodInvoker invoke) {
  Registry &r = registry();
  std::lock_guard<std::mutex> g(r.mu);
  // Several translation units may register the same specialisation.
  r.methods[type].emplace(method, invoke);
}

bool invoke_registered_method(std::type_index type, std::uint64_t method, void *object,
                              Request &rq) {
  MethodInvoker invoke = nullptr;
  {
    Registry &r = registry();
    std::lock_guard<std::mutex> g(r.mu);
    auto cls = r.methods.find(type);
    if (cls == r.methods.end())
      return false;
    auto m = cls->second.find(method);
    if (m == cls->second.end())
      return false;
    invoke = m->second;
  }
  invoke(object, rq);
  return true;
}

const ClassInfo *find_class(std::uint64_t key) noexcept {
  Registry &r = registry();
  std::lock_guard<std::mutex> g(r.mu);
  auto it = r.by_key.find(key);
  return it == r.by_key.end() ? nullptr : it->second;
}

} // namespace poc::detail
