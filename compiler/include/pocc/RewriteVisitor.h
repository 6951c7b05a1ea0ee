//===- RewriteVisitor.h - The rewrites of process operations ----*- C++ -*-===//
//
// The traversal that rewrites the user's process operations in place. It
// keeps where it is (the chain of enclosing statements, the function and
// the top-level declaration being visited, whether that function is
// POC_NONBLOCKING) in the RewriteContext every family of rewrites shares,
// and passes each node to the families, one class each: creation and
// deletion (CreationRewriter), calls through pointers to processes
// (CallRewriter), elements of remote arrays (ElementRewriter), `start`
// (StartRewriter), `"poc://..."` addresses (PersistenceRewriter) and `main`
// (MainRenamer). Library code is never rewritten: only the nodes of the
// user's files are passed on. Through noteUse, it notes for the
// TranslationLayout which classes each top-level declaration uses, so that
// their declarations can go before it.
//
//===----------------------------------------------------------------------===//
#ifndef POCC_REWRITEVISITOR_H
#define POCC_REWRITEVISITOR_H

#include "pocc/CallRewriter.h"
#include "pocc/CreationRewriter.h"
#include "pocc/ElementRewriter.h"
#include "pocc/MainRenamer.h"
#include "pocc/PersistenceRewriter.h"
#include "pocc/RewriteContext.h"
#include "pocc/StartRewriter.h"

#include "clang/AST/RecursiveASTVisitor.h"

namespace pocc {

/// Walks the user's top-level declarations, keeps where it is in the shared
/// context, and passes each node of the user's files to the family that
/// rewrites it.
class RewriteVisitor : public clang::RecursiveASTVisitor<RewriteVisitor> {
public:
  RewriteVisitor(clang::ASTContext &C, clang::Rewriter &R, Diagnostics &Diags,
                 const TranslateOptions &Opts, RemoteModel &Model, Serializability &Sendable,
                 InterfaceGen &Gen, TranslationLayout &Layout,
                 llvm::ArrayRef<clang::Decl *> TopLevel, StartKeywordOffsets StartOffsets)
      : Ctx(C, R, Diags, Opts, Model, Sendable, Gen, Layout, TopLevel),
        Starts(Ctx, std::move(StartOffsets)), Persistence(Ctx), Creation(Ctx, Starts, Persistence),
        Calls(Ctx, Starts), Elements(Ctx), Main(Ctx) {}

  /// Reports every `start` the rewrites did not consume (not before a call).
  void reportStrayStarts() { Starts.reportStrayStarts(); }
  /// True if \p L is in a file poc++ rewrites (RewriteContext::inUserFile).
  bool inUserFile(clang::SourceLocation L) const { return Ctx.inUserFile(L); }
  /// The calls whose method is chosen at instantiation, if the file has any.
  DependentCalls *dependentCalls() { return Ctx.dependentCalls(); }
  /// Renames `main` to poc_user_main (the generated `main` runs it). Done
  /// after the other rewrites, so that a file whose only change would be
  /// this one is known to have no process operation.
  void renameMain() { Main.renameMain(); }
  /// Where the first process operation the rewrites met is (invalid if
  /// none).
  clang::SourceLocation firstOperation() const { return Ctx.firstOperation(); }

  // RecursiveASTVisitor configuration and hooks.
  bool shouldVisitTemplateInstantiations() const { return false; }
  bool shouldVisitImplicitCode() const { return false; }
  bool TraverseDecl(clang::Decl *D);
  bool TraverseFunctionDecl(clang::FunctionDecl *FD) {
    return traverseFunction(FD, [&] { return RecursiveASTVisitor::TraverseFunctionDecl(FD); });
  }
  bool TraverseCXXMethodDecl(clang::CXXMethodDecl *FD) {
    return traverseFunction(FD, [&] { return RecursiveASTVisitor::TraverseCXXMethodDecl(FD); });
  }
  bool TraverseCXXConstructorDecl(clang::CXXConstructorDecl *FD) {
    return traverseFunction(FD,
                            [&] { return RecursiveASTVisitor::TraverseCXXConstructorDecl(FD); });
  }
  bool TraverseCXXDestructorDecl(clang::CXXDestructorDecl *FD) {
    return traverseFunction(FD, [&] { return RecursiveASTVisitor::TraverseCXXDestructorDecl(FD); });
  }
  /// Keeps the chain of enclosing statements (RewriteContext::Parents), so
  /// that a rewrite can ask how an expression's value is used.
  bool TraverseStmt(clang::Stmt *S) {
    Ctx.Parents.push_back(S);
    bool R = RecursiveASTVisitor::TraverseStmt(S);
    Ctx.Parents.pop_back();
    return R;
  }
  bool TraverseUnaryExprOrTypeTraitExpr(clang::UnaryExprOrTypeTraitExpr *) {
    return true; // sizeof/alignof operands are not evaluated
  }
  bool TraverseDecltypeTypeLoc(clang::DecltypeTypeLoc) { return true; }
  /// A lambda's body runs wherever the lambda is called, maybe on another
  /// thread: the rule of a POC_NONBLOCKING method around it does not
  /// reach into it.
  bool TraverseLambdaExpr(clang::LambdaExpr *E) {
    const clang::FunctionDecl *Saved = Ctx.NonblockingFunction;
    Ctx.NonblockingFunction = nullptr;
    bool R = RecursiveASTVisitor::TraverseLambdaExpr(E);
    Ctx.NonblockingFunction = Saved;
    return R;
  }
  bool VisitCXXMemberCallExpr(clang::CXXMemberCallExpr *E);
  bool VisitCallExpr(clang::CallExpr *E);
  bool VisitCXXNewExpr(clang::CXXNewExpr *E);
  bool VisitCXXDeleteExpr(clang::CXXDeleteExpr *E);
  bool VisitArraySubscriptExpr(clang::ArraySubscriptExpr *E);
  bool VisitUnaryOperator(clang::UnaryOperator *E);
  bool VisitMemberExpr(clang::MemberExpr *E);
  bool VisitBinaryOperator(clang::BinaryOperator *E);
  bool VisitDeclStmt(clang::DeclStmt *S);
  bool VisitFunctionDecl(clang::FunctionDecl *FD) { return Main.VisitFunctionDecl(FD); }
  bool VisitDeclRefExpr(clang::DeclRefExpr *E) { return Main.VisitDeclRefExpr(E); }

private:
  template <class F> bool traverseFunction(clang::FunctionDecl *FD, F Traverse) {
    clang::FunctionDecl *Saved = Ctx.CurrentFunction;
    const clang::FunctionDecl *SavedNonblocking = Ctx.NonblockingFunction;
    Ctx.CurrentFunction = FD;
    Ctx.NonblockingFunction = isNonblocking(FD) ? FD : nullptr;
    bool R = Traverse();
    Ctx.CurrentFunction = Saved;
    Ctx.NonblockingFunction = SavedNonblocking;
    return R;
  }
  /// True if \p S is in a file poc++ rewrites; the families see no other.
  bool inUserCode(const clang::Stmt *S) const { return Ctx.inUserFile(S->getBeginLoc()); }

  RewriteContext Ctx;
  StartRewriter Starts;
  PersistenceRewriter Persistence;
  CreationRewriter Creation;
  CallRewriter Calls;
  ElementRewriter Elements;
  MainRenamer Main;
};

} // namespace pocc

#endif
