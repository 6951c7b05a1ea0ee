//===- RuntimePch.h - a precompiled runtime header for the backend -*- C++ -*-===//
//
// Every translation includes <poc/gen/runtime.hpp> (config::GeneratedCodeHeader),
// which costs the backend compiler more to parse than a typical user file.
// poc++ therefore keeps precompiled copies of it in a cache, one per set of
// compile flags (Clang refuses a precompiled header built with other flags,
// e.g. another -O), built the first time a set is used and reused after.
//
//===----------------------------------------------------------------------===//
#ifndef POCC_RUNTIMEPCH_H
#define POCC_RUNTIMEPCH_H

#include "pocc/Toolchain.h"
#include <string>
#include <vector>

namespace pocc {

/// The precompiled <poc/gen/runtime.hpp> for compiling translations with
/// \p Compiler and \p Flags (everything on the compile command but the
/// source's own folder, the input, the output and the dependency options),
/// built on first use; empty if there is none to use: the compiler is not
/// Clang, `POC_PCH=0`, no cache folder (`POC_PCH_CACHE`,
/// `$XDG_CACHE_HOME/poc++` or `~/.cache/poc++`) can be made, or building
/// it failed. Never an error: without it the compile is only slower.
std::string runtimePch(const Toolchain &TC, const std::vector<std::string> &Flags);

} // namespace pocc

#endif
