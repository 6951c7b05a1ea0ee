//===- DriverFiles.h - files the driver reads and writes --------*- C++ -*-===//
//
// The driver's file output: translations and their rewritten header copies,
// preprocessed output renamed to the user's files, dependency files in
// Makefile syntax, and the copy of standard input a source "-" is read from.
//
//===----------------------------------------------------------------------===//
#ifndef POCC_DRIVERFILES_H
#define POCC_DRIVERFILES_H

#include "pocc/CommandLine.h"

#include "llvm/ADT/StringRef.h"

#include <string>
#include <utility>
#include <vector>

namespace pocc {

/// Writes \p Text to \p Path; false with the reason printed on failure.
bool writeFile(const std::string &Path, llvm::StringRef Text);

/// \p Path made absolute.
std::string absolute(const std::string &Path);

/// The file name of \p Src without folder and extension.
std::string stem(const std::string &Src);

/// The prerequisites of a Makefile rule file written by a compiler's -MD:
/// continuation lines joined, escaped spaces kept in their paths.
std::vector<std::string> readMakeDependencies(llvm::StringRef Text);

/// Writes the dependency file the -M options asked for: the rule for the
/// target(s) (-MT/-MQ, or \p Object), with the user's \p Source, the user
/// headers the translation read (\p SourceDeps) and what the system
/// compiler reported in \p CompilerDeps, less poc++'s own files in
/// \p GenDir (the translation and rewritten header copies).
bool writeDependencies(const DriverOptions &O, const std::string &Source, const std::string &Object,
                       const std::string &CompilerDeps, const std::string &GenDir,
                       const std::vector<std::string> &SourceDeps);

/// Writes the rewritten copies of headers into \p Dir, replacing any
/// earlier ones (a header that no longer needs a copy must not keep one).
bool writeHeaders(const std::string &Dir,
                  const std::vector<std::pair<std::string, std::string>> &Headers);

/// Writes a translation and its header copies to standard output, each
/// after a line naming it (--emit-generated -): the translation first, the
/// copies in the order of their names.
void writeGeneratedStream(const std::string &Name, llvm::StringRef Text,
                          const std::vector<std::pair<std::string, std::string>> &Headers);

/// Copies the preprocessed translation \p Path to \p Output (standard
/// output if empty), its line markers naming \p Source where they named
/// the translation \p Generated, and the user's header where they named
/// its rewritten copy (under Generated.headers/, at the header's path).
bool writePreprocessed(const std::string &Path, llvm::StringRef Generated, llvm::StringRef Source,
                       const std::string &Output);

/// Copies standard input to a temporary file; empty on failure (reported).
std::string copyStandardInput();

} // namespace pocc

#endif
