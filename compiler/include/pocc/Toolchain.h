//===- Toolchain.h - where poc++ finds headers, libraries, compilers -*- C++ -*-===//
#ifndef POCC_TOOLCHAIN_H
#define POCC_TOOLCHAIN_H

#include <string>
#include <vector>

namespace pocc {

/// The paths poc++ uses, for a build tree or an installed tree.
struct Toolchain {
  /// Directory holding <poc/poc.hpp> and <poc/gen/runtime.hpp>.
  std::string RuntimeInclude;
  /// The newest modification time of the runtime's headers (ns), so
  /// that a precompiled copy of them can tell it is stale (RuntimePch.h).
  long long RuntimeHeadersStamp = 0;
  /// Directory of headers only the parse sees (poc_start_marker.hpp).
  std::string ParseInclude;
  /// Precompiled poc_parse_prefix.hpp for the parse; empty if none.
  std::string ParsePch;
  /// Directory searched first when compiling generated code: it holds a
  /// precompiled poc/gen/runtime.hpp.gch for the default system compiler;
  /// empty if none.
  std::string CxxPchDir;
  /// libpoc_runtime and the project libraries it needs, in link order.
  std::vector<std::string> RuntimeLibraries;
  /// Clang's resource directory (its own stddef.h etc.) for the parse.
  std::string ClangResourceDir;
  /// MPI header directories (the runtime headers may include <mpi.h>).
  std::vector<std::string> MpiIncludes;
  /// The system C++ compiler (the Clang poc++ is built on); POC_CXX
  /// overrides it.
  std::string Compiler;
  /// True if Compiler is the Clang poc++ is built on, which poc++ runs in
  /// its own process for plain C++ files (pocc/PlainCompile.h).
  bool CompilerInProcess = false;
  /// llvm-objcopy, which adds poc++'s record to objects.
  std::string ObjCopy;
  /// MPI's libraries, for the link (the compiler is no MPI wrapper).
  std::vector<std::string> MpiLibraries;
  /// Link flags the runtime needs after the library.
  std::vector<std::string> RuntimeLinkFlags;

  /// Detects the layout from the location of the running poc++ (\p Argv0):
  /// an installed tree (`<prefix>/bin/poc++` next to `<prefix>/include`)
  /// or the build tree it was built in.
  static Toolchain detect(const char *Argv0);

  /// Directories whose files are never user files.
  std::vector<std::string> systemPrefixes() const;
};

} // namespace pocc

#endif
