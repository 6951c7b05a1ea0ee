#include "demangle.hpp"

#include <cxxabi.h>

#include <cstdlib>
#include <memory>

namespace poc::detail {

std::string demangle(const char *mangled) {
  int status = 0;
  std::unique_ptr<char, void (*)(void *)> s(abi::__cxa_demangle(mangled, nullptr, nullptr, &status),
                                            std::free);
  return status == 0 && s ? std::string(s.get()) : std::string(mangled);
}

} // namespace poc::detail
