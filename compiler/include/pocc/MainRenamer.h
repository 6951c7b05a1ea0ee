//===- MainRenamer.h - The user's `main` becomes poc_user_main --*- C++ -*-===//
//
// The generated `main` starts the runtime and runs the user's, renamed
// poc_user_main: its declarations and the places that name it are noted
// during the traversal and renamed after the other rewrites, so that a file
// whose only change would be this one is known to have no process
// operation.
//
//===----------------------------------------------------------------------===//
#ifndef POCC_MAINRENAMER_H
#define POCC_MAINRENAMER_H

#include "pocc/RewriteContext.h"

#include <vector>

namespace pocc {

/// Notes where the main file names `main`, and renames it.
class MainRenamer {
public:
  explicit MainRenamer(RewriteContext &Ctx) : Ctx(Ctx) {}

  bool VisitFunctionDecl(clang::FunctionDecl *FD);
  bool VisitDeclRefExpr(clang::DeclRefExpr *E);
  /// Renames `main` to poc_user_main, and makes it return 0 where it falls
  /// off its end.
  void renameMain();

private:
  RewriteContext &Ctx;
  /// Where the file names `main`: its declarations and uses.
  std::vector<clang::SourceLocation> MainNames;
  /// The body of `main` if it falls off its end.
  const clang::CompoundStmt *MainBodyWithoutReturn = nullptr;
};

} // namespace pocc

#endif
