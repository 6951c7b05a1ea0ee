//===- StartKeyword.h - the `start` keyword pre-pass ------------*- C++ -*-===//
//
// `start` is not C++. Before Clang sees a user file, this pre-pass finds the
// `start` tokens that are in keyword position and overwrites them with spaces
// (same length, so every location in the file stays the user's), recording
// where they were. The AST pass then marks the expression that begins at
// each recorded offset as started. The exact rule is in docs/language.md.
//
//===----------------------------------------------------------------------===//
#ifndef POCC_STARTKEYWORD_H
#define POCC_STARTKEYWORD_H

#include "llvm/ADT/StringRef.h"
#include <string>
#include <vector>

namespace clang {
class LangOptions;
}

namespace pocc {

/// The outcome of scanning one file.
struct StartScan {
  /// The file text with every keyword `start` replaced: by five spaces in
  /// statement position, by the marker `_Pst^` (declared by
  /// <poc_start_marker.hpp>, which makes `auto f = start p->g()` a
  /// poc::future for the parse) after `=`.
  std::string Text;
  /// Byte offsets where each started expression or statement begins.
  std::vector<unsigned> ExprOffsets;
  /// Byte offsets of the keywords themselves, parallel to ExprOffsets.
  std::vector<unsigned> KeywordOffsets;
};

/// Scans \p Source with Clang's raw lexer. Returns a scan with no offsets
/// (and an empty Text) if the file uses no `start` keyword.
StartScan scanStartKeywords(llvm::StringRef Source, const clang::LangOptions &LangOpts);

} // namespace pocc

#endif
