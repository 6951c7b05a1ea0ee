//===- UserSourcePrinter.h - diagnostics that quote the user's text -*- C++ -*-===//
//
// poc++ parses a copy of each user file in which its pre-passes replaced
// `start` and "poc://" initialisers by markers of the same length
// (pocc/StartKeyword.h, pocc/Persistence.h). Clang's diagnostics would quote
// that copy; this printer quotes the file as the user wrote it.
//
//===----------------------------------------------------------------------===//
#ifndef POCC_USERSOURCEPRINTER_H
#define POCC_USERSOURCEPRINTER_H

#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/DiagnosticOptions.h"
#include "clang/Frontend/TextDiagnosticPrinter.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace pocc {

/// Prints diagnostics as Clang's TextDiagnosticPrinter does, to standard
/// error, except that quoted source lines come from the files on disk, and
/// that warnings are left to the backend compiler.
/// Since the pre-passes keep every offset, carets and ranges stay right.
class UserSourcePrinter : public clang::DiagnosticConsumer {
public:
  UserSourcePrinter();
  ~UserSourcePrinter() override;

  void BeginSourceFile(const clang::LangOptions &LangOpts, const clang::Preprocessor *PP) override;
  void EndSourceFile() override;
  void HandleDiagnostic(clang::DiagnosticsEngine::Level Level,
                        const clang::Diagnostic &Info) override;
  /// Shows the file \p Path as \p Name (the copy of standard input as
  /// `<stdin>`, a source under the relative name the user gave).
  void showFileAs(std::string Path, std::string Name) {
    ShownAs.emplace_back(std::move(Path), std::move(Name));
  }
  /// While \p Hold, keeps what would be printed, for takeHeldBack (poc++
  /// decides afterwards whether the file's diagnostics are these).
  void holdBack(bool Hold) { Holding = Hold; }
  std::string takeHeldBack() {
    HeldOut.flush();
    return std::exchange(Held, std::string());
  }
  /// Where Clang's "N errors generated." goes while holding back.
  llvm::raw_ostream &heldStream() { return HeldOut; }

private:
  /// True for Sema's error on the parse-only form of `start p->g()` with a
  /// void g after `=` (valid poc++) or as an operand (reported by the
  /// translation; see the definition): not shown.
  static bool isStartedVoidCall(const clang::Diagnostic &Info);
  /// Ends the compilation with an error at \p Info's location (called on
  /// Clang's "stack nearly exhausted" warning: see the definition).
  [[noreturn]] static void stopRunawayRecursion(const clang::Diagnostic &Info);
  /// Replaces the quoted lines of \p Rendered that show the parsed copy of
  /// the diagnostic's file by the file's own lines.
  std::string restoreSource(const std::string &Rendered, const clang::Diagnostic &Info) const;

  /// True after a dropped diagnostic, so that its notes are dropped too.
  bool DroppingNotes = false;
  /// True once a fatal error was shown: nothing else is (as in clang++).
  bool FatalSeen = false;
  /// Files shown under other names (showFileAs).
  std::vector<std::pair<std::string, std::string>> ShownAs;
  bool Holding = false;
  std::string Held;
  llvm::raw_string_ostream HeldOut{Held};
  std::string Buffer;
  llvm::raw_string_ostream Out{Buffer};
  llvm::IntrusiveRefCntPtr<clang::DiagnosticOptions> Options;
  std::unique_ptr<clang::TextDiagnosticPrinter> Printer;
};

} // namespace pocc

#endif
