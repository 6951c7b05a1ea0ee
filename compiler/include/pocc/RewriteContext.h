//===- RewriteContext.h - What every family of rewrites shares --*- C++ -*-===//
//
// The rewrites of process operations are split by family (creation, calls,
// remote array elements, `start`, persistence, `main`), one class each; they
// share one RewriteContext: the translation's objects, where the traversal
// is (kept by RewriteVisitor), and the helpers every family edits the source
// with, so that no family keeps a copy of another's state.
//
//===----------------------------------------------------------------------===//
#ifndef POCC_REWRITECONTEXT_H
#define POCC_REWRITECONTEXT_H

#include "pocc/DependentCalls.h"
#include "pocc/Diagnostics.h"
#include "pocc/InterfaceGen.h"
#include "pocc/RemoteModel.h"
#include "pocc/Serializability.h"
#include "pocc/TranslateOptions.h"
#include "pocc/TranslationLayout.h"

#include "clang/Lex/Lexer.h"
#include "clang/Rewrite/Core/Rewriter.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace pocc {

/// Nodes Sema wraps around an expression without changing its meaning.
bool isImplicitWrapper(const clang::Stmt *S);

/// The state and helpers the families of rewrites share.
class RewriteContext {
public:
  RewriteContext(clang::ASTContext &C, clang::Rewriter &R, Diagnostics &Diags,
                 const TranslateOptions &Opts, RemoteModel &Model, Serializability &Sendable,
                 InterfaceGen &Gen, TranslationLayout &Layout,
                 llvm::ArrayRef<clang::Decl *> TopLevel)
      : AST(&C), SM(&C.getSourceManager()), LangOpts(C.getLangOpts()), R(R), Diags(Diags),
        Opts(Opts), Model(&Model), Sendable(&Sendable), Gen(&Gen), Layout(Layout),
        TopLevel(TopLevel) {}

  /// True if \p L is in a file poc++ rewrites: the main file or one of the
  /// user's own headers (not a system, MPI or poc header).
  bool inUserFile(clang::SourceLocation L) const;
  /// Reports and returns false if \p E involves macros (not rewritable).
  bool rewritable(const clang::Expr *E);
  /// Where the first process operation the rewrites met is (invalid if
  /// none).
  clang::SourceLocation firstOperation() const { return FirstOperation; }
  clang::SourceLocation afterToken(clang::SourceLocation L) const {
    return clang::Lexer::getLocForEndOfToken(L, 0, *SM, LangOpts);
  }
  void replace(clang::SourceLocation B, clang::SourceLocation E, llvm::StringRef Text) {
    R.ReplaceText(clang::CharSourceRange::getCharRange(B, E), Text);
  }
  /// Notes that the top-level declaration being visited uses \p C, so that
  /// the TranslationLayout declares C's generated code before it.
  void noteUse(const RemoteClass &C);
  /// The statement enclosing the expression being visited (which is on top
  /// of Parents), skipping implicit wrappers; null at the top.
  const clang::Stmt *parentOfCurrent() const {
    for (size_t I = Parents.size(); I-- > 1;)
      if (!isImplicitWrapper(Parents[I - 1]))
        return Parents[I - 1];
    return nullptr;
  }
  /// Reports \p What (an operation that waits) at \p At if it is in the
  /// body of a method marked POC_NONBLOCKING.
  void checkNoWait(clang::SourceLocation At, const std::string &What);
  /// Reports, and returns false, if the arguments or the result of \p M
  /// (called by \p Call or constructed by \p Ctor at \p At) cannot be sent.
  bool checkProblem(const RemoteMethod &M, const clang::CallExpr *Call,
                    const clang::CXXConstructExpr *Ctor, clang::SourceLocation At);
  /// Reports the arguments \p Args of \p M for its remote array parameters
  /// that can only be local pointers.
  void checkArrayArgs(const RemoteMethod &M, llvm::ArrayRef<const clang::Expr *> Args);
  /// The calls and creations chosen at instantiation (DependentCalls.h),
  /// made when the first is met.
  DependentCalls &dependent();
  /// The calls whose method is chosen at instantiation, if the file has any.
  DependentCalls *dependentCalls() { return Dependent.get(); }

  clang::ASTContext *AST;
  clang::SourceManager *SM;
  clang::LangOptions LangOpts;
  clang::Rewriter &R;
  Diagnostics &Diags;
  const TranslateOptions &Opts;
  RemoteModel *Model;
  Serializability *Sendable;
  InterfaceGen *Gen;
  TranslationLayout &Layout;

  // Where the traversal is, kept by RewriteVisitor.
  /// The enclosing statements of the node being visited, innermost last:
  /// the AST has no parent links, and Clang's ParentMapContext would index
  /// the whole translation unit.
  std::vector<const clang::Stmt *> Parents;
  clang::FunctionDecl *CurrentFunction = nullptr;
  /// The method marked POC_NONBLOCKING whose body is being visited, if any
  /// (checkNoWait).
  const clang::FunctionDecl *NonblockingFunction = nullptr;
  /// The top-level declaration being visited (noteUse).
  const clang::Decl *CurrentTop = nullptr;

private:
  llvm::ArrayRef<clang::Decl *> TopLevel;
  std::unique_ptr<DependentCalls> Dependent;
  /// Whether a file is a user file, by file.
  mutable std::map<clang::FileID, bool> UserFiles;
  clang::SourceLocation FirstOperation;
};

} // namespace pocc

#endif
