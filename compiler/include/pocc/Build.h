//===- Build.h - compiling and linking one poc++ command -------*- C++ -*-===//
//
// The driver's build: each source compiled as clang++ compiles it, or
// translated and its translation compiled, each object given the record the
// link reads; then the link, which compiles again the files whose calls
// reach process classes only the whole program shows (pocc/ProgramLink.h).
//
//===----------------------------------------------------------------------===//
#ifndef POCC_BUILD_H
#define POCC_BUILD_H

#include "pocc/CommandLine.h"
#include "pocc/DriverFiles.h"
#include "pocc/ObjectRecord.h"
#include "pocc/PlainCompile.h"
#include "pocc/ProgramLink.h"
#include "pocc/SourceTranslation.h"
#include "pocc/Toolchain.h"

#include <set>
#include <string>
#include <vector>

namespace pocc {

/// True if the command's sources are all plain C++ under the user's flags
/// and its link inputs need no runtime: its -### is clang++'s.
bool allPlain(const DriverOptions &O, const Toolchain &TC);

/// One poc++ command: compiles each source (as plain C++ or translated)
/// and links.
class Build {
public:
  Build(const DriverOptions &O, const Toolchain &TC, Translation &T, std::string TempDir,
        std::string GenDir, std::set<std::string> Names)
      : O(O), TC(TC), T(T), TempDir(std::move(TempDir)), GenDir(std::move(GenDir)),
        Names(std::move(Names)) {}

  /// Compiles source \p I into \p Obj (or what -S, -E, -M, -fsyntax-only
  /// ask for); returns the exit code.
  int compileSource(size_t I, const std::string &Obj);
  /// Links \p Objects with the link inputs (pocc/ProgramLink.h).
  int link(const std::vector<std::string> &Objects);

private:
  /// poc++'s own files for source \p I, in the temporary folder.
  std::string temporary(size_t I, const std::string &Suffix) const {
    return TempDir + "/" + stem(O.Sources[I]) + Suffix;
  }
  /// True if source files may be compiled as plain C++ in this process.
  bool plainAllowed() const {
    return TC.CompilerInProcess && O.ProcessClasses.empty() && O.EmitGeneratedDir.empty() &&
           O.CompilationDbDir.empty();
  }
  /// clang++'s arguments for source \p I alone, as the user gave them.
  std::vector<std::string> plainArguments(size_t I, const std::string &Obj) const;
  /// Compiles source \p I exactly as clang++ does (in this process), its
  /// diagnostics held back in \p Result.
  PlainCompile compilePlainSource(size_t I, const std::string &Obj) const;
  /// Prints a plain compile's diagnostics (standard input named as
  /// clang++ names it).
  void printPlainDiagnostics(const PlainCompile &Plain) const;
  /// Prints the diagnostics of source \p I's plain compile and records
  /// its object; the exit code.
  int finishPlain(size_t I, const std::string &Obj, const PlainCompile &Plain) const;
  /// Compiles source \p I as clang++ (or POC_CXX) does: a file that cannot
  /// hold process operations, or one found to have none.
  int compilePlainOnly(size_t I, const std::string &Obj);
  /// The record of source \p I, without what its compile found.
  ObjectRecord recordOf(size_t I) const;
  bool attach(const std::string &Obj, const ObjectRecord &R) const;
  bool writesObject() const {
    return !O.Assemble && !O.Preprocess && !O.SyntaxOnly && !O.Deps.Only && !O.DryRun;
  }
  /// Compiles the translation of source \p I (written to \p Generated).
  int compileTranslation(size_t I, const std::string &Obj, const std::string &Generated,
                         const std::vector<std::string> &SourceDeps);
  /// Compiles the files of \p Plan.Recompilations again, and replaces
  /// their objects in \p Objects and the link inputs and flags.
  bool recompile(const LinkPlan &Plan, std::vector<std::string> &Objects,
                 std::vector<std::string> &LinkInputs, std::vector<std::string> &LinkFlags);

  const DriverOptions &O;
  const Toolchain &TC;
  Translation &T;
  std::string TempDir, GenDir;
  std::set<std::string> Names;
  /// True once a source was translated (what -### assumes of the link).
  bool AnyTranslated = false;
};

} // namespace pocc

#endif
