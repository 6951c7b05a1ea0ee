//===- TranslateOptions.h - what a translation needs ------------*- C++ -*-===//
#ifndef POCC_TRANSLATEOPTIONS_H
#define POCC_TRANSLATEOPTIONS_H

#include "pocc/ObjectRecord.h"
#include "pocc/UserFileSystem.h"

#include "llvm/Support/raw_ostream.h"

#include <set>
#include <string>
#include <utility>
#include <vector>

namespace pocc {

/// What a translation found, for the object's record (pocc/ObjectRecord.h).
struct TranslationReport {
  /// True if anything but `main`'s name was rewritten or generated: the
  /// file needs the translation (else it is plain C++).
  bool ProcessOperations = false;
  /// True if the user's code reaches poc++'s API or holds a `start`, even
  /// if the file has errors: the file is poc++'s, and its diagnostics are
  /// the translation's (pocc/ReachesPoc.h).
  bool ReachesPoc = false;
  bool DefinesMain = false;      ///< the file defines `main`
  std::set<std::string> Creates; ///< classes created remotely, with bases
  std::vector<ClassCall> Calls;  ///< pocc/ClassCalls.h
};

/// What a translation needs besides the source.
struct TranslateOptions {
  /// Remotable class names found in every input file of the invocation.
  std::set<std::string> ProgramRemotable;
  /// The source file as the user named it (for `#line` and comments).
  std::string SourceName;
  /// The name the generated file is written under (for `#line`).
  std::string GeneratedName;
  /// Where `start` keywords were blanked out (shared with the file system).
  const UserFileSystem *Files = nullptr;
  /// If set, receives every user file the translation read (for depfiles).
  std::vector<std::string> *Dependencies = nullptr;
  /// The directory under which rewritten copies of the user's headers go
  /// (each at its original's absolute path); empty if there is none, and
  /// then a header with process operations is an error.
  std::string HeaderDir;
  /// Name the user's files relative to the source's directory, and the
  /// header copies relative to HeaderDir, so that the text does not depend
  /// on where the project is (--emit-generated -, for golden tests).
  bool PortableNames = false;
  /// Lay out the generated code with clang-format, for a reader: off when
  /// the translation is only compiled and then removed, where the layout
  /// was an eighth of poc++'s own work (bench/RESULTS.md).
  bool ForReaders = true;
  /// Receives (path, text) of each rewritten header copy.
  std::vector<std::pair<std::string, std::string>> *Headers = nullptr;
  /// The -std= value the file is compiled with if it is older than C++20
  /// (the file is parsed as C++20): a process operation is then an error.
  std::string OlderStandard;
  /// The folders of poc++'s own headers (the runtime's, the parse's).
  std::vector<std::string> PocHeaderDirs;
  /// If set, where Clang's "N errors generated." goes (held back with the
  /// diagnostics).
  llvm::raw_ostream *Summary = nullptr;
  /// If set, receives what the translation found.
  TranslationReport *Report = nullptr;
};

} // namespace pocc

#endif
