//===- MainRenamer.cpp - The user's `main` becomes poc_user_main ----------===//
#include "pocc/MainRenamer.h"

using namespace clang;

namespace pocc {

bool MainRenamer::VisitFunctionDecl(FunctionDecl *FD) {
  if (!FD->isMain() || !Ctx.SM->isWrittenInMainFile(FD->getLocation()))
    return true;
  // Every declaration is renamed, so that a use after a forward
  // declaration finds the renamed function (VisitDeclRefExpr).
  MainNames.push_back(FD->getLocation());
  if (!FD->doesThisDeclarationHaveABody())
    return true;
  Ctx.Layout.noteMain(FD);
  // Only `main` may fall off its end; poc_user_main must return.
  const auto *Body = dyn_cast<CompoundStmt>(FD->getBody());
  if (Body && (Body->body_empty() || !isa<ReturnStmt>(Body->body_back())))
    MainBodyWithoutReturn = Body;
  return true;
}

bool MainRenamer::VisitDeclRefExpr(DeclRefExpr *E) {
  // A program may name `main` (Clang accepts it as an extension), e.g. as a
  // function pointer; it now means the renamed user main.
  const auto *FD = dyn_cast<FunctionDecl>(E->getDecl());
  if (FD && FD->isMain() && Ctx.SM->isWrittenInMainFile(E->getLocation()) &&
      !E->getLocation().isMacroID())
    MainNames.push_back(E->getLocation());
  return true;
}

void MainRenamer::renameMain() {
  for (SourceLocation L : MainNames)
    Ctx.R.ReplaceText(L, 4, "poc_user_main");
  if (MainBodyWithoutReturn)
    Ctx.R.InsertTextBefore(MainBodyWithoutReturn->getRBracLoc(), "return 0; ");
}

} // namespace pocc
