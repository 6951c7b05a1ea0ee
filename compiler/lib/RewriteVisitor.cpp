//===- RewriteVisitor.cpp - The rewrites of process operations: traversal and main ===//
#include "pocc/RewriteVisitor.h"

#include "pocc/LayoutHash.h"
#include "pocc/Persistence.h"
#include "pocc/SerializerGen.h"
#include "pocc/TypeNames.h"

using namespace clang;

namespace pocc {

bool isImplicitWrapper(const Stmt *S) {
  return isa<ExprWithCleanups>(S) || isa<ImplicitCastExpr>(S) || isa<CXXBindTemporaryExpr>(S) ||
         isa<MaterializeTemporaryExpr>(S) || isa<ParenExpr>(S);
}

DependentCalls &RewriteVisitor::dependent() {
  if (!Dependent)
    Dependent =
        std::make_unique<DependentCalls>(*Gen, definedRemotableClasses(*Model, *SM, TopLevel));
  return *Dependent;
}

bool RewriteVisitor::TraverseDecl(Decl *D) {
  if (!D)
    return true;
  const DeclContext *DC = D->getLexicalDeclContext();
  bool TopLevel = DC && (DC->isFileContext() || isa<LinkageSpecDecl>(DC)) &&
                  !isa<NamespaceDecl>(D) && !isa<LinkageSpecDecl>(D) &&
                  !isa<TranslationUnitDecl>(D);
  if (TopLevel || isa<NamespaceDecl>(D) || isa<LinkageSpecDecl>(D)) {
    // System, MPI and poc headers are library code, read and not changed.
    if (!inUserFile(D->getLocation()))
      return true;
  }
  if (!TopLevel)
    return RecursiveASTVisitor::TraverseDecl(D);
  const Decl *Saved = CurrentTop;
  CurrentTop = D;
  Layout.noteTop(D);
  bool Res = RecursiveASTVisitor::TraverseDecl(D);
  CurrentTop = Saved;
  return Res;
}

bool RewriteVisitor::inUserFile(SourceLocation L) const {
  if (L.isInvalid())
    return false;
  FileID FID = SM->getFileID(SM->getExpansionLoc(L));
  auto [It, New] = UserFiles.emplace(FID, false);
  if (New) {
    OptionalFileEntryRef FE = SM->getFileEntryRefForID(FID);
    // Headers found through system include paths are library code
    // wherever they are (the paths Clang names them by vary).
    It->second =
        FID == SM->getMainFileID() || (FE && Opts.Files && Opts.Files->isUserPath(FE->getName()) &&
                                       !SM->isInSystemHeader(SM->getLocForStartOfFile(FID)));
  }
  return It->second;
}

bool RewriteVisitor::rewritable(const Expr *E) {
  if (FirstOperation.isInvalid())
    FirstOperation = E->getBeginLoc();
  if (E->getBeginLoc().isMacroID() || E->getEndLoc().isMacroID()) {
    Diags.report(E->getBeginLoc(), Diag::Unsupported)
        << "process operations inside macro expansions; write them "
           "outside the macro";
    return false;
  }
  return true;
}

void RewriteVisitor::noteUse(const RemoteClass &C) { Layout.noteUseAt(C, CurrentTop); }

void RewriteVisitor::checkNoWait(SourceLocation At, const std::string &What) {
  if (NonblockingFunction)
    Diags.report(At, Diag::WaitsInNonblocking)
        << What << NonblockingFunction->getQualifiedNameAsString();
}

void RewriteVisitor::checkWaitingCall(const CallExpr *E) {
  const FunctionDecl *FD = E->getDirectCallee();
  if (!NonblockingFunction || !FD)
    return;
  const std::string Name = FD->getQualifiedNameAsString();
  if (Name == "poc::sync" || Name == "poc::wait_until") {
    checkNoWait(E->getBeginLoc(), "'" + Name + "()'");
    return;
  }
  const auto *MD = dyn_cast<CXXMethodDecl>(FD);
  if (MD && MD->getParent()->getQualifiedNameAsString() == "poc::future" &&
      (MD->getName() == "get" || MD->getName() == "wait"))
    checkNoWait(E->getExprLoc(), "a future's '" + MD->getNameAsString() + "()'");
}

bool RewriteVisitor::VisitMemberExpr(MemberExpr *E) {
  if (!inUserFile(E->getBeginLoc()) || !E->isArrow())
    return true;
  const auto *FD = dyn_cast<FieldDecl>(E->getMemberDecl());
  const Expr *Base = E->getBase();
  if (!FD || isa<CXXThisExpr>(Base->IgnoreParenImpCasts()))
    return true;
  const auto *RD = Base->getType()->getPointeeCXXRecordDecl();
  if (RD && Model->isRemotable(RD))
    Diags.report(E->getMemberLoc(), Diag::RemoteFieldAccess) << FD->getName() << RD->getName();
  return true;
}

bool RewriteVisitor::VisitFunctionDecl(FunctionDecl *FD) {
  if (!FD->isMain() || !SM->isWrittenInMainFile(FD->getLocation()))
    return true;
  // Every declaration is renamed, so that a use after a forward
  // declaration finds the renamed function (VisitDeclRefExpr).
  MainNames.push_back(FD->getLocation());
  if (!FD->doesThisDeclarationHaveABody())
    return true;
  Layout.noteMain(FD);
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
  if (FD && FD->isMain() && SM->isWrittenInMainFile(E->getLocation()) &&
      !E->getLocation().isMacroID())
    MainNames.push_back(E->getLocation());
  return true;
}

void RewriteVisitor::renameMain() {
  for (SourceLocation L : MainNames)
    R.ReplaceText(L, 4, "poc_user_main");
  if (MainBodyWithoutReturn)
    R.InsertTextBefore(MainBodyWithoutReturn->getRBracLoc(), "return 0; ");
}

} // namespace pocc
