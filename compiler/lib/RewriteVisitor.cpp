//===- RewriteVisitor.cpp - The rewrites of process operations: traversal ===//
#include "pocc/RewriteVisitor.h"

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

bool RewriteVisitor::VisitMemberExpr(MemberExpr *E) {
  return !inUserCode(E) || Calls.VisitMemberExpr(E);
}

bool RewriteVisitor::VisitBinaryOperator(BinaryOperator *E) {
  return !inUserCode(E) || Creation.VisitBinaryOperator(E);
}

bool RewriteVisitor::VisitDeclStmt(DeclStmt *S) {
  return !inUserCode(S) || Creation.VisitDeclStmt(S);
}

} // namespace pocc
