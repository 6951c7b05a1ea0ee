//===- CommandLine.h - poc++'s command line ---------------------*- C++ -*-===//
//
// poc++ reads its command line with Clang's own option table, so it takes
// what clang++ takes; its own options (--translate-only, --emit-generated,
// --program-source, --process-class, --depfile, -p) are taken out first.
//
//===----------------------------------------------------------------------===//
#ifndef POCC_COMMANDLINE_H
#define POCC_COMMANDLINE_H

#include "llvm/Support/Error.h"

#include <set>
#include <string>
#include <vector>

namespace pocc {

/// The parsed command line.
struct DriverOptions {
  /// Files to compile: C++ (which may hold process operations) and what
  /// else clang++ compiles (C with -x c, assembly, headers to precompile).
  std::vector<std::string> Sources;
  /// For each source, the -x language it was given ("" if none).
  std::vector<std::string> SourceLanguages;
  /// For each source, true if it cannot hold process operations (not C++,
  /// or a header to precompile): it is only ever compiled as clang++ does.
  std::vector<bool> PlainOnly;
  /// The arguments without poc++'s own options: clang++'s command line
  /// (for -### of a command whose files are all plain C++).
  std::vector<std::string> ClangArguments;
  std::vector<std::string> LinkInputs;   ///< objects and libraries
  std::vector<std::string> ParseFlags;   ///< -I -D -U -isystem -include -std
  std::vector<std::string> CompileFlags; ///< everything for the compiler
  std::vector<std::string> LinkFlags;    ///< -L -l -Wl, ...
  std::string Output;                    ///< -o
  std::string EmitGeneratedDir;          ///< --emit-generated
  std::string CompilationDbDir;          ///< -p
  /// --program-source: other files of the program, read (not translated)
  /// to find the classes they create remotely (for build systems that
  /// translate one file per command).
  std::vector<std::string> ProgramSources;
  std::string DepFile; ///< --depfile: Makefile-style deps
  /// --process-class, and the classes the link found the program creates
  /// when it compiles a file again (pocc/ProgramLink.h): calls of their
  /// methods are rewritten, and the file is always translated.
  std::set<std::string> ProcessClasses;
  /// --version, -dumpversion, -dumpmachine, -print-file-name=, -print-*:
  /// questions about the toolchain, answered by the system compiler (as
  /// clang++ answers them) when there is no input.
  std::vector<std::string> CompilerQuery;
  bool Version = false;       ///< --version: poc++'s own version line first
  bool CompileOnly = false;   ///< -c
  bool Assemble = false;      ///< -S: assembly, not objects
  bool Preprocess = false;    ///< -E: the preprocessed translation
  bool SyntaxOnly = false;    ///< -fsyntax-only: check, write nothing
  bool TranslateOnly = false; ///< --translate-only
  bool Verbose = false;       ///< -v: print commands
  bool DryRun = false;        ///< -###: print commands, run none
  bool Help = false;
  bool HasStd = false;         ///< the user chose -std=
  std::string Std;             ///< ... this one
  bool StdBeforeCxx20 = false; ///< ... older than C++20
  /// Dependency output as Clang's -M family asks for it: the user's source
  /// and the files it includes, never poc++'s temporary translation.
  struct Dependencies {
    bool Write = false;               ///< -MD/-MMD beside compiling, -M/-MM alone
    bool Only = false;                ///< -M/-MM: dependencies instead of compiling
    bool UserOnly = false;            ///< -MM/-MMD: no system headers
    bool Phony = false;               ///< -MP: a phony target per header
    std::string File;                 ///< -MF (default: beside the object, or stdout)
    std::vector<std::string> Targets; ///< -MT/-MQ (default: the object)
  } Deps;
};

/// Parses \p Args (without argv[0]); an error names the bad argument.
llvm::Expected<DriverOptions> parseCommandLine(llvm::ArrayRef<std::string> Args);

/// The usage text of `poc++ --help`.
const char *usageText();

} // namespace pocc

#endif
