// Exception types' identities, and the exceptions that carry them.

#include "failure.hpp"

#include <poc/gen/method_id.hpp>
#include <poc/serialize/type_name.hpp>

#include <mutex>
#include <typeindex>
#include <unordered_map>

namespace poc {
namespace {

/// The exception types met so far: their ids and demangled names.
class ErrorTypes {
public:
  struct Entry {
    std::uint64_t id;
    std::string name;
  };
  const Entry &find_or_add(const std::type_info &type) {
    std::lock_guard<std::mutex> g(mu_);
    auto it = types_.find(type);
    if (it == types_.end()) {
      std::string name = detail::type_name(type);
      it = types_.emplace(type, Entry{method_id(name), std::move(name)}).first;
    }
    return it->second;
  }

private:
  std::mutex mu_;
  /// Entries are never removed, so references to them stay valid.
  std::unordered_map<std::type_index, Entry> types_;
};

ErrorTypes &error_types() {
  static ErrorTypes types;
  return types;
}

} // namespace

std::uint64_t error_type_id(const std::type_info &type) {
  return error_types().find_or_add(type).id;
}

remote_error::remote_error(std::uint64_t type_id, std::string type, std::string message)
    : std::runtime_error(type + ": " + message), type_id_(type_id), type_(std::move(type)),
      message_(std::move(message)) {}

barrier_abandoned::barrier_abandoned(std::string message)
    : remote_error(error_type_id<barrier_abandoned>(),
                   detail::RemoteFailure::error_type_name(typeid(barrier_abandoned)),
                   std::move(message)) {}

namespace detail {

std::string RemoteFailure::error_type_name(const std::type_info &type) {
  return error_types().find_or_add(type).name;
}

RemoteFailure RemoteFailure::current() noexcept {
  try {
    throw;
  } catch (const std::exception &e) {
    const auto &entry = error_types().find_or_add(typeid(e));
    return {entry.id, entry.name, e.what()};
  } catch (...) {
    return {0, "unknown exception", "(not derived from std::exception)"};
  }
}

std::exception_ptr RemoteFailure::to_exception() const {
  if (is<barrier_abandoned>())
    return std::make_exception_ptr(barrier_abandoned(message));
  return std::make_exception_ptr(remote_error(type, name, message));
}

void RemoteFailure::write(Writer &w) const {
  w.write(type);
  w.write(name);
  w.write(message);
}

RemoteFailure RemoteFailure::read(Reader &r) {
  RemoteFailure f;
  f.type = r.read<std::uint64_t>();
  f.name = r.read<std::string>();
  f.message = r.read<std::string>();
  return f;
}

} // namespace detail
} // namespace poc
