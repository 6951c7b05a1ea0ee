//===- poc/serialize/type_name.hpp - Readable type names for messages -----===//
#pragma once

#include <string>
#include <typeinfo>

namespace poc::detail {

/// The demangled name of \p type, for error messages.
std::string type_name(const std::type_info &type);

} // namespace poc::detail
