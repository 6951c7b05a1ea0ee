//===- RewriteContext.cpp - What every family of rewrites shares ----------===//
#include "pocc/RewriteContext.h"

using namespace clang;

namespace pocc {

bool isImplicitWrapper(const Stmt *S) {
  return isa<ExprWithCleanups>(S) || isa<ImplicitCastExpr>(S) || isa<CXXBindTemporaryExpr>(S) ||
         isa<MaterializeTemporaryExpr>(S) || isa<ParenExpr>(S);
}

DependentCalls &RewriteContext::dependent() {
  if (!Dependent)
    Dependent =
        std::make_unique<DependentCalls>(*Gen, definedRemotableClasses(*Model, *SM, TopLevel));
  return *Dependent;
}

bool RewriteContext::inUserFile(SourceLocation L) const {
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

bool RewriteContext::rewritable(const Expr *E) {
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

void RewriteContext::noteUse(const RemoteClass &C) { Layout.noteUseAt(C, CurrentTop); }

void RewriteContext::checkNoWait(SourceLocation At, const std::string &What) {
  if (NonblockingFunction)
    Diags.report(At, Diag::WaitsInNonblocking)
        << What << NonblockingFunction->getQualifiedNameAsString();
}

bool RewriteContext::checkProblem(const RemoteMethod &M, const CallExpr *Call,
                                  const CXXConstructExpr *Ctor, SourceLocation At) {
  if (!M.Problem)
    return true;
  std::string Name = M.Decl ? M.Decl->getQualifiedNameAsString() : "";
  if (M.ProblemParam) {
    unsigned Index = M.ProblemParam->getFunctionScopeIndex();
    const Expr *Arg = nullptr;
    if (Call && Index < Call->getNumArgs())
      Arg = Call->getArg(Index);
    if (Ctor && Index < Ctor->getNumArgs())
      Arg = Ctor->getArg(Index);
    SourceLocation L = Arg && !isa<CXXDefaultArgExpr>(Arg) ? Arg->getBeginLoc() : At;
    Diags.report(L, Diag::UnsendableParam)
        << Name << M.ProblemParam->getName() << M.ProblemParam->getType() << M.Problem->Reason;
    Diags.report(M.ProblemParam->getLocation(), Diag::DeclaredHere) << M.ProblemParam->getName();
  } else {
    Diags.report(At, Diag::UnsendableResult)
        << Name << M.Decl->getReturnType() << M.Problem->Reason;
  }
  if (M.Problem->Culprit && M.Problem->Culprit != M.ProblemParam)
    Diags.report(M.Problem->Culprit->getLocation(), Diag::DeclaredHere)
        << M.Problem->Culprit->getName();
  return false;
}

void RewriteContext::checkArrayArgs(const RemoteMethod &M, llvm::ArrayRef<const Expr *> Args) {
  for (size_t I = 0; I < M.Params.size() && I < Args.size(); ++I) {
    if (M.Params[I].Kind != ParamKind::RemoteArray)
      continue;
    const Expr *A = Args[I]->IgnoreParenImpCasts();
    if (isa<CXXDefaultArgExpr>(A) || isa<CXXNullPtrLiteralExpr>(A) || isa<GNUNullExpr>(A) ||
        A->isNullPointerConstant(*AST, Expr::NPC_ValueDependentIsNotNull))
      continue;
    if (!Model->mayBeRemoteArray(Args[I]))
      Diags.report(Args[I]->getBeginLoc(), Diag::LocalPointerToRemote)
          << M.Params[I].Decl->getName() << (M.Decl ? M.Decl->getQualifiedNameAsString() : "");
  }
}

} // namespace pocc
