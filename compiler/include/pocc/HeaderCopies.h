//===- HeaderCopies.h - The files a translation writes ----------*- C++ -*-===//
//
// The names a translation gives its files in `#line` directives and
// comments, and the rewritten copies of the user's headers: a header in
// which poc++ rewrote process operations (and every user header including
// one) is written to a copy of its own, and include directives name the
// copies instead of the originals.
//
//===----------------------------------------------------------------------===//
#ifndef POCC_HEADERCOPIES_H
#define POCC_HEADERCOPIES_H

#include "pocc/Diagnostics.h"
#include "pocc/TranslateOptions.h"

#include "clang/Basic/SourceManager.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Rewrite/Core/Rewriter.h"

#include <map>
#include <string>
#include <vector>

namespace pocc {

/// Marker line replaced by a `#line` directive naming the generated file,
/// once the line it lands on is known (resolveGeneratedLines).
inline constexpr llvm::StringLiteral GenLineMarker = "#line @poc-generated@\n";

/// `#line Line "File"` and a newline.
std::string lineDirective(unsigned Line, llvm::StringRef File);

/// Replaces each GenLineMarker line in \p Text by a `#line` directive
/// naming \p Name, the file \p Text is written to.
std::string resolveGeneratedLines(llvm::StringRef Text, llvm::StringRef Name);

/// An include directive of the translation unit: the file name as written
/// (with its quotes or brackets) and the file it named.
struct IncludeDirective {
  clang::CharSourceRange Name;
  clang::FileEntryRef Target;
};

/// Records every include directive that found a file, so that directives
/// naming a rewritten header can name its rewritten copy instead.
class IncludeRecorder : public clang::PPCallbacks {
public:
  explicit IncludeRecorder(std::vector<IncludeDirective> &Out) : Out(Out) {}
  void InclusionDirective(clang::SourceLocation, const clang::Token &, llvm::StringRef, bool,
                          clang::CharSourceRange FilenameRange, clang::OptionalFileEntryRef File,
                          llvm::StringRef, llvm::StringRef, const clang::Module *, bool,
                          clang::SrcMgr::CharacteristicKind) override {
    if (File)
      Out.push_back({FilenameRange, *File});
  }

private:
  std::vector<IncludeDirective> &Out;
};

/// File names of a translation and its header copies.
class HeaderCopies {
public:
  HeaderCopies(const clang::SourceManager &SM, const TranslateOptions &Opts, Diagnostics &Diags)
      : SM(SM), Opts(Opts), Diags(Diags) {}

  /// The main file as the user named it.
  std::string sourceName() const;
  /// A user file's name in `#line` directives: the main file as the user
  /// named it, a header by its absolute path (Opts.PortableNames: the main
  /// file by its file name, a header relative to the main file's folder).
  std::string fileName(clang::FileID FID) const;
  /// A user header's name, as fileName gives it, from its path \p Name.
  std::string userFileName(llvm::StringRef Name) const;

  /// Writes the rewritten copies of the user's headers (those \p R changed
  /// and those including them) to Opts.Headers and points the include
  /// directives of the main file and the copies at them; false (with a
  /// diagnostic) if a header cannot be copied.
  bool write(clang::Rewriter &R, const std::vector<IncludeDirective> &Includes);

private:
  /// Names each copy in \p Copied by the path it is written to: the
  /// original's absolute path under Opts.HeaderDir; with Opts.PortableNames,
  /// its path relative to the main file's folder without the leading `..`
  /// (`../include/a.hpp` is `HeaderDir/include/a.hpp`), unless two copies
  /// would share that name, which then keep absolute paths.
  void nameCopies(const std::map<const clang::FileEntry *, clang::FileID> &Copied);
  /// Where the rewritten copy of header \p FID goes (after nameCopies).
  std::string copyPath(clang::FileID FID) const { return CopyPaths.at(FID); }

  const clang::SourceManager &SM;
  const TranslateOptions &Opts;
  Diagnostics &Diags;
  std::map<clang::FileID, std::string> CopyPaths;
};

} // namespace pocc

#endif
