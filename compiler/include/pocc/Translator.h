//===- Translator.h - process-oriented C++ to C++ ---------------*- C++ -*-===//
//
// Translates one user source file: the user's text with the process
// constructs rewritten in place (remote creation, deletion and calls,
// remote array accesses, `start`, `main`), interface and client
// declarations inserted before their first use, and at the end the
// serializers, client wrapper definitions, servers, registrations and the
// generated `main`. `#line` directives map the user's lines back to the
// user's file, so errors from the system compiler point there too.
//
//===----------------------------------------------------------------------===//
#ifndef POCC_TRANSLATOR_H
#define POCC_TRANSLATOR_H

#include "pocc/TranslateOptions.h"
#include "clang/Frontend/FrontendAction.h"
#include <memory>
#include <set>
#include <string>

namespace pocc {

/// Parses a file and produces its translation in \p Output (empty if the
/// file has errors; the errors are reported through Clang's diagnostics).
class TranslateAction : public clang::ASTFrontendAction {
public:
  TranslateAction(const TranslateOptions &Opts, std::string &Output) : Opts(Opts), Output(Output) {}

protected:
  std::unique_ptr<clang::ASTConsumer> CreateASTConsumer(clang::CompilerInstance &CI,
                                                        llvm::StringRef InFile) override;
  /// The translation needs declarations and the user's code, not the
  /// bodies of the (library) function templates the file uses: a "prefix"
  /// translation unit skips those end-of-file instantiations, which are
  /// most of the parse's time. The system compiler instantiates them later.
  clang::TranslationUnitKind getTranslationUnitKind() override { return clang::TU_Prefix; }
  /// Lets the consumer skip the bodies of library functions.
  bool BeginSourceFileAction(clang::CompilerInstance &CI) override;

private:
  const TranslateOptions &Opts;
  std::string &Output;
};

/// First pass over a multi-file program: adds the names of the classes a
/// file creates remotely (and their bases) to \p Names.
class CollectRemotableAction : public clang::ASTFrontendAction {
public:
  explicit CollectRemotableAction(std::set<std::string> &Names) : Names(Names) {}

protected:
  std::unique_ptr<clang::ASTConsumer> CreateASTConsumer(clang::CompilerInstance &CI,
                                                        llvm::StringRef InFile) override;
  clang::TranslationUnitKind getTranslationUnitKind() override { return clang::TU_Prefix; }
  /// Lets the consumer skip the bodies of library functions.
  bool BeginSourceFileAction(clang::CompilerInstance &CI) override;

private:
  std::set<std::string> &Names;
};

} // namespace pocc

#endif
