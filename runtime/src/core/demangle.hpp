#pragma once
/// \file
/// Readable type names for error messages.

#include <string>

namespace poc::detail {

/// The demangled form of a typeid name (the mangled name if that fails).
std::string demangle(const char *mangled);

} // namespace poc::detail
