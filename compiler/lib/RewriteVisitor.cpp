//===- RewriteVisitor.cpp - The rewrites of process operations: traversal and main ===//
#include "pocc/RewriteVisitor.h"

#include "pocc/LayoutHash.h"
#include "pocc/Persistence.h"
#include "pocc/SerializerGen.h"
#include "pocc/TypeNames.h"

using namespace clang;

namespace pocc {

bool RewriteVisitor::TraverseDecl(Decl *D) {
  if (!D)
    return true;
  const DeclContext *DC = D->getLexicalDeclContext();
  bool TopLevel = DC && (DC->isFileContext() || isa<LinkageSpecDecl>(DC)) &&
                  !isa<NamespaceDecl>(D) && !isa<LinkageSpecDecl>(D) &&
                  !isa<TranslationUnitDecl>(D);
  if (TopLevel || isa<NamespaceDecl>(D) || isa<LinkageSpecDecl>(D)) {
    // System, MPI and poc headers are library code, read and not changed.
    if (!Ctx.inUserFile(D->getLocation()))
      return true;
  }
  if (!TopLevel)
    return RecursiveASTVisitor::TraverseDecl(D);
  const Decl *Saved = Ctx.CurrentTop;
  Ctx.CurrentTop = D;
  Ctx.Layout.noteTop(D);
  bool Res = RecursiveASTVisitor::TraverseDecl(D);
  Ctx.CurrentTop = Saved;
  return Res;
}

bool RewriteVisitor::VisitCXXMemberCallExpr(CXXMemberCallExpr *E) {
  return !inUserCode(E) || Calls.VisitCXXMemberCallExpr(E);
}

bool RewriteVisitor::VisitCallExpr(CallExpr *E) {
  // An address literal's marker is no call of the user's.
  if (!inUserCode(E) || Persistence.rewriteAddressLiteral(E))
    return true;
  Persistence.checkPersistentCall(E);
  return Calls.VisitCallExpr(E);
}

bool RewriteVisitor::VisitCXXNewExpr(CXXNewExpr *E) {
  return !inUserCode(E) || Creation.VisitCXXNewExpr(E);
}

bool RewriteVisitor::VisitCXXDeleteExpr(CXXDeleteExpr *E) {
  return !inUserCode(E) || Creation.VisitCXXDeleteExpr(E);
}

bool RewriteVisitor::VisitArraySubscriptExpr(ArraySubscriptExpr *E) {
  return !inUserCode(E) || Elements.VisitArraySubscriptExpr(E);
}

bool RewriteVisitor::VisitUnaryOperator(UnaryOperator *E) {
  return !inUserCode(E) || Elements.VisitUnaryOperator(E);
}

bool RewriteVisitor::VisitBinaryOperator(BinaryOperator *E) {
  return !inUserCode(E) || Creation.VisitBinaryOperator(E);
}

bool RewriteVisitor::VisitDeclStmt(DeclStmt *S) {
  return !inUserCode(S) || Creation.VisitDeclStmt(S);
}

bool RewriteVisitor::VisitMemberExpr(MemberExpr *E) {
  return !inUserCode(E) || Calls.VisitMemberExpr(E);
}

bool RewriteVisitor::VisitFunctionDecl(FunctionDecl *FD) {
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

bool RewriteVisitor::VisitDeclRefExpr(DeclRefExpr *E) {
  // A program may name `main` (Clang accepts it as an extension), e.g. as a
  // function pointer; it now means the renamed user main.
  const auto *FD = dyn_cast<FunctionDecl>(E->getDecl());
  if (FD && FD->isMain() && Ctx.SM->isWrittenInMainFile(E->getLocation()) &&
      !E->getLocation().isMacroID())
    MainNames.push_back(E->getLocation());
  return true;
}

void RewriteVisitor::renameMain() {
  for (SourceLocation L : MainNames)
    Ctx.R.ReplaceText(L, 4, "poc_user_main");
  if (MainBodyWithoutReturn)
    Ctx.R.InsertTextBefore(MainBodyWithoutReturn->getRBracLoc(), "return 0; ");
}

} // namespace pocc
