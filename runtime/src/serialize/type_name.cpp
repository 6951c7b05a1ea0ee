//===- serialize/type_name.cpp - Demangling for error messages ------------===//
#include "poc/serialize/type_name.hpp"

#include <cstdlib>
#include <cxxabi.h>
#include <memory>

namespace poc::detail {

std::string type_name(const std::type_info &type) {
  int status = 0;
  std::unique_ptr<char, void (*)(void *)> demangled(
      abi::__cxa_demangle(type.name(), nullptr, nullptr, &status), std::free);
  return status == 0 && demangled ? std::string(demangled.get()) : std::string(type.name());
}

} // namespace poc::detail
