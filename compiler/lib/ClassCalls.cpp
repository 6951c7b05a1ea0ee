//===- ClassCalls.cpp - the classes a file calls methods of ---------------===//
#include "pocc/ClassCalls.h"
#include "pocc/TypeNames.h"

#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/Support/SaveAndRestore.h"

#include <map>

using namespace clang;

namespace pocc {

namespace {
/// True if \p Object (a `.` call's object) is held by value: a variable or
/// a field that is not a reference, which no process can be.
bool heldByValue(const Expr *Object) {
  const ValueDecl *D = nullptr;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(Object))
    D = DRE->getDecl();
  else if (const auto *ME = dyn_cast<MemberExpr>(Object))
    D = ME->getMemberDecl();
  return D && !D->getType()->isReferenceType();
}

/// The class \p T names, or that it points to when \p ThroughPointer; null
/// for anything else, including the null type Clang gives an expression
/// whose type a template argument decides (a dependent `delete p`).
const CXXRecordDecl *classOf(QualType T, bool ThroughPointer) {
  if (T.isNull() || T->isDependentType())
    return nullptr;
  return ThroughPointer ? T->getPointeeCXXRecordDecl() : T->getAsCXXRecordDecl();
}

class CallRecorder : public RecursiveASTVisitor<CallRecorder> {
public:
  CallRecorder(ASTContext &Ctx, llvm::function_ref<bool(SourceLocation)> InUserFile,
               llvm::function_ref<bool(const CXXRecordDecl *)> Rewritten)
      : SM(Ctx.getSourceManager()), InUserFile(InUserFile), Rewritten(Rewritten) {}

  bool shouldVisitTemplateInstantiations() const { return true; }

  bool TraverseDecl(Decl *D) {
    if (!D)
      return true;
    if (!isa<TranslationUnitDecl>(D) && !InUserFile(D->getLocation()))
      return true;
    const auto *FD = dyn_cast<FunctionDecl>(D);
    if (!FD)
      return RecursiveASTVisitor::TraverseDecl(D);
    llvm::SaveAndRestore<const FunctionDecl *> InFunction(Current, FD);
    return RecursiveASTVisitor::TraverseDecl(D);
  }

  bool VisitCXXMemberCallExpr(CXXMemberCallExpr *E) {
    const auto *ME = dyn_cast<MemberExpr>(E->getCallee()->IgnoreParens());
    const auto *MD = dyn_cast_or_null<CXXMethodDecl>(E->getMethodDecl());
    if (!ME || !MD || MD->isStatic())
      return true;
    const Expr *Object = ME->getBase()->IgnoreParenImpCasts();
    if (isa<CXXThisExpr>(Object) || (!ME->isArrow() && heldByValue(Object)))
      return true;
    note(classOf(Object->getType(), ME->isArrow()), E);
    return true;
  }

  bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *E) {
    OverloadedOperatorKind K = E->getOperator();
    if ((K != OO_Call && K != OO_Subscript) || E->getNumArgs() == 0)
      return true;
    // `(*p)(x)`, `(*p)[i]`: the object is a dereferenced pointer.
    const auto *Deref = dyn_cast<UnaryOperator>(E->getArg(0)->IgnoreParenImpCasts());
    if (Deref && Deref->getOpcode() == UO_Deref)
      note(classOf(Deref->getSubExpr()->getType(), /*ThroughPointer=*/true), E);
    return true;
  }

  bool VisitCXXDeleteExpr(CXXDeleteExpr *E) {
    if (!E->isArrayForm())
      note(classOf(E->getDestroyedType(), /*ThroughPointer=*/false), E);
    return true;
  }

  std::vector<ClassCall> Calls;

private:
  void note(const CXXRecordDecl *RD, const Expr *Call) {
    if (!RD || !RD->hasDefinition() || !InUserFile(RD->getDefinition()->getLocation()))
      return;
    std::string Name = className(RD->getDefinition());
    if (!Seen.emplace(Name, Calls.size()).second)
      return;
    PresumedLoc P = SM.getPresumedLoc(SM.getExpansionLoc(Call->getBeginLoc()));
    std::string Where = P.isValid()
                            ? std::string(P.getFilename()) + ":" + std::to_string(P.getLine())
                            : std::string("<unknown>");
    Calls.push_back({Name, Current ? Current->getQualifiedNameAsString() : "<global>", Where,
                     Rewritten && Rewritten(RD)});
  }

  const SourceManager &SM;
  llvm::function_ref<bool(SourceLocation)> InUserFile;
  llvm::function_ref<bool(const CXXRecordDecl *)> Rewritten;
  const FunctionDecl *Current = nullptr;
  std::map<std::string, size_t> Seen;
};
} // namespace

std::vector<ClassCall> recordClassCalls(ASTContext &Ctx, llvm::ArrayRef<Decl *> TopLevel,
                                        llvm::function_ref<bool(SourceLocation)> InUserFile,
                                        llvm::function_ref<bool(const CXXRecordDecl *)> Rewritten) {
  CallRecorder R(Ctx, InUserFile, Rewritten);
  for (Decl *D : TopLevel)
    R.TraverseDecl(D);
  return std::move(R.Calls);
}

} // namespace pocc
