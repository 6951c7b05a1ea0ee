//===- PlainCompile.h - compiling a file exactly as clang++ does -*- C++ -*-===//
//
// A file that uses no process operation is plain C++, and poc++ must
// compile it exactly as clang++ does: no extra headers, include folders,
// libraries or start-up code (docs/compiler.md section 1). poc++ runs
// Clang's own driver and compiler in its process on the user's command
// line, with one more consumer of the parsed file beside code generation:
// it records the classes the file calls methods of (for the link), and
// notices poc++'s API. So the file is parsed once, and if it does not
// compile as plain C++ (it uses `new(m)`, `start`, `poc::`...), poc++
// translates it instead and the attempt's diagnostics are dropped.
//
//===----------------------------------------------------------------------===//
#ifndef POCC_PLAINCOMPILE_H
#define POCC_PLAINCOMPILE_H

#include "pocc/ObjectRecord.h"

#include "llvm/ADT/ArrayRef.h"

#include <string>
#include <vector>

namespace pocc {

/// The outcome of compiling a file as plain C++.
struct PlainCompile {
  /// True if the file compiled as plain C++ without poc++'s API: its
  /// outputs are written as clang++ writes them.
  bool Compiled = false;
  /// True if the file reaches poc++'s API (poc++'s own `poc` namespace,
  /// declared in poc++'s headers): it needs the translation even if it
  /// compiled.
  bool UsesPoc = false;
  /// What the compile printed (warnings, or the errors that made poc++
  /// translate the file instead), held back until poc++ knows which (with
  /// -v printed at once, as clang++ prints it).
  std::string Diagnostics;
  /// The classes the file calls methods of (pocc/ClassCalls.h).
  std::vector<ClassCall> Calls;
};

/// Runs the Clang driver at \p ClangPath on \p Args (clang++'s arguments
/// after argv[0], for one source) in this process; \p PocHeaderDirs are
/// the folders of poc++'s own headers (PlainCompile::UsesPoc).
PlainCompile compilePlain(const std::string &ClangPath, llvm::ArrayRef<std::string> Args,
                          llvm::ArrayRef<std::string> PocHeaderDirs);

/// Runs the Clang driver at \p ClangPath on \p Args in this process, as
/// clang++ runs: its jobs (a link, say) as subprocesses, -v and -### as
/// clang++ shows them, and its errors ("linker command failed") under
/// poc++'s name. Returns the exit code.
int runClangDriver(const std::string &ClangPath, llvm::ArrayRef<std::string> Args);

} // namespace pocc

#endif
