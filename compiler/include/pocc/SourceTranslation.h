//===- SourceTranslation.h - translating one command's sources --*- C++ -*-===//
//
// The driver's side of translation: the LibTooling tool that parses a user
// source with poc++'s API under the user's flags, the pass that finds which
// classes a program creates remotely, and where a translation is written.
//
//===----------------------------------------------------------------------===//
#ifndef POCC_SOURCETRANSLATION_H
#define POCC_SOURCETRANSLATION_H

#include "pocc/CommandLine.h"
#include "pocc/Toolchain.h"
#include "pocc/TranslateOptions.h"
#include "pocc/UserFileSystem.h"
#include "pocc/UserSourcePrinter.h"

#include "clang/Tooling/CompilationDatabase.h"
#include "clang/Tooling/Tooling.h"

#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace pocc {

/// The translation of one source and what goes with it.
struct TranslatedSource {
  /// The name the translation is written under, and the folder of its
  /// rewritten headers (empty: none may be needed).
  std::string GenName, HeaderDir;
  std::string Text;              ///< the translation
  std::vector<std::string> Deps; ///< the user files it read
  /// (path, text) of each rewritten header copy.
  std::vector<std::pair<std::string, std::string>> Headers;
  TranslationReport Report;
  /// The parse's diagnostics, when they were held back.
  std::string Diagnostics;
};

/// Where the translation of \p Src goes in \p GenDir: `<stem>.poc.cpp`,
/// with the rewritten headers beside it.
TranslatedSource generatedFiles(const std::string &GenDir, const std::string &Src);

/// True if the main file \p Src names anything of poc++'s (the identifier
/// `poc`, `__POCXX__`, a `start` keyword) or uses a placement `new (`. Only
/// an order: such a file is parsed with poc++'s API first, which saves a
/// failed plain compile of a file with process operations; the answer is
/// still the parses' (Build::compileSource).
bool mentionsProcessOperations(const std::string &Src);

/// Translates the sources of one invocation.
class Translation {
public:
  Translation(const DriverOptions &O, const Toolchain &TC) : O(O), TC(TC) {}
  /// Removes the copy of standard input, which lives as long as the command.
  ~Translation();
  Translation(const Translation &) = delete;
  Translation &operator=(const Translation &) = delete;

  /// Loads the compilation database (or makes a fixed one).
  bool init();

  /// Pass one for multi-file programs: which classes are created remotely.
  /// A file that does not parse here creates none; its own compile shows
  /// its errors (a plain file's as clang++ shows them).
  void collect(std::set<std::string> &Names);

  /// Translates \p Src into \p Into (whose GenName and HeaderDir are
  /// set); false on errors (already reported, or with \p Hold kept in
  /// Into.Diagnostics).
  bool translate(const std::string &Src, const std::set<std::string> &Names, TranslatedSource &Into,
                 bool Hold = false);

  /// The file that holds standard input (source "-"); see shownName.
  const std::string &stdinCopy() const { return StdinCopy; }
  /// Makes \p Path the copy of standard input, which diagnostics show as
  /// clang++ does.
  void takeStdinCopy(std::string Path);
  /// How `#line`, line markers and diagnostics name source \p Src.
  std::string shownName(const std::string &Src) const { return Src == StdinCopy ? "<stdin>" : Src; }
  /// Diagnostics name source \p Src as the user named it (LibTooling
  /// parses it under its absolute path), as clang++ does.
  void showAsNamed(const std::string &Src);

private:
  /// A tool that parses \p Src alone with poc++'s API, and the file system
  /// it reads through.
  std::pair<std::unique_ptr<clang::tooling::ClangTool>, llvm::IntrusiveRefCntPtr<UserFileSystem>>
  makeTool(const std::string &Src);

  const DriverOptions &O;
  const Toolchain &TC;
  std::unique_ptr<clang::tooling::CompilationDatabase> DB;
  std::string StdinCopy;
  UserSourcePrinter Printer;
};

} // namespace pocc

#endif
