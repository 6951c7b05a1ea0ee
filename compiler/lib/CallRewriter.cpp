//===- CallRewriter.cpp - Calls through pointers to processes -------------===//
#include "pocc/CallRewriter.h"

using namespace clang;

namespace pocc {

void CallRewriter::checkWaitingCall(const CallExpr *E) {
  const FunctionDecl *FD = E->getDirectCallee();
  if (!Ctx.NonblockingFunction || !FD)
    return;
  const std::string Name = FD->getQualifiedNameAsString();
  if (Name == "poc::sync" || Name == "poc::wait_until") {
    Ctx.checkNoWait(E->getBeginLoc(), "'" + Name + "()'");
    return;
  }
  const auto *MD = dyn_cast<CXXMethodDecl>(FD);
  if (MD && MD->getParent()->getQualifiedNameAsString() == "poc::future" &&
      (MD->getName() == "get" || MD->getName() == "wait"))
    Ctx.checkNoWait(E->getExprLoc(), "a future's '" + MD->getNameAsString() + "()'");
}

bool CallRewriter::VisitMemberExpr(MemberExpr *E) {
  if (!E->isArrow())
    return true;
  const auto *FD = dyn_cast<FieldDecl>(E->getMemberDecl());
  const Expr *Base = E->getBase();
  if (!FD || isa<CXXThisExpr>(Base->IgnoreParenImpCasts()))
    return true;
  const auto *RD = Base->getType()->getPointeeCXXRecordDecl();
  if (RD && Ctx.Model->isRemotable(RD))
    Ctx.Diags.report(E->getMemberLoc(), Diag::RemoteFieldAccess) << FD->getName() << RD->getName();
  return true;
}

void CallRewriter::rewriteCallArgs(SourceLocation AfterCallee, const Expr *const *Args,
                                   unsigned NumArgs, SourceLocation Close, bool HaveLeading) {
  // The first explicit argument; default arguments have no source.
  const Expr *First = nullptr;
  for (unsigned I = 0; I < NumArgs; ++I)
    if (!isa<CXXDefaultArgExpr>(Args[I])) {
      First = Args[I];
      break;
    }
  if (First)
    Ctx.replace(AfterCallee, Ctx.SM->getExpansionLoc(First->getBeginLoc()),
                HaveLeading ? ", " : "");
  else
    Ctx.replace(AfterCallee, Close, "");
}

bool CallRewriter::VisitCXXMemberCallExpr(CXXMemberCallExpr *E) {
  const CXXMethodDecl *MD = E->getMethodDecl();
  const auto *ME = dyn_cast<MemberExpr>(E->getCallee()->IgnoreParens());
  if (!MD || !ME || MD->isStatic())
    return true;
  const Expr *Base = ME->getBase();
  bool Deref = false;
  if (!ME->isArrow()) {
    const auto *UO = dyn_cast<UnaryOperator>(Base->IgnoreParens());
    if (!UO || UO->getOpcode() != UO_Deref)
      return Starts.startOnObjectIfStarted(E, ME);
    Deref = true;
  } else if (isa<CXXThisExpr>(Base->IgnoreParenImpCasts())) {
    return Starts.startOnObjectIfStarted(E, ME);
  }
  // `(*this).f()`: the process's own object, like `this->f()`.
  if (Deref && isa<CXXThisExpr>(
                   cast<UnaryOperator>(Base->IgnoreParens())->getSubExpr()->IgnoreParenImpCasts()))
    return Starts.startOnObjectIfStarted(E, ME);
  QualType PT =
      Deref ? cast<UnaryOperator>(Base->IgnoreParens())->getSubExpr()->getType() : Base->getType();
  const CXXRecordDecl *Pointee =
      PT->isPointerType() ? PT->getPointeeType()->getAsCXXRecordDecl() : nullptr;
  if (!Pointee || !Ctx.Model->isRemotable(Pointee))
    return Starts.startOnObjectIfStarted(E, ME);
  if (!Ctx.rewritable(E))
    return true;
  const RemoteMethod *M = Ctx.Gen->methodFor(MD);
  if (!M) {
    if (MD->getAccess() != AS_public)
      Ctx.Diags.report(ME->getMemberLoc(), Diag::RemoteCallToPrivate)
          << MD->getName() << MD->getParent()->getName();
    else
      Ctx.Diags.report(ME->getMemberLoc(), Diag::Unsupported)
          << ("calling '" + MD->getNameAsString() +
              "' through a pointer that may refer to another process");
    return true;
  }
  if (!Ctx.checkProblem(*M, E, nullptr, ME->getMemberLoc()))
    return true;
  Ctx.checkArrayArgs(*M, llvm::ArrayRef<const Expr *>(E->getArgs(), E->getNumArgs()));
  Ctx.R.InsertTextBefore(Ctx.SM->getExpansionLoc(Base->getBeginLoc()),
                         clientWrapper(MD, *M, E->getBeginLoc()) + (Deref ? "&" : ""));
  rewriteCallArgs(Ctx.afterToken(Ctx.SM->getExpansionLoc(Base->getEndLoc())), E->getArgs(),
                  E->getNumArgs(), Ctx.SM->getExpansionLoc(E->getRParenLoc()), true);
  return true;
}

std::string CallRewriter::clientWrapper(const CXXMethodDecl *MD, const RemoteMethod &M,
                                        SourceLocation Begin) {
  std::string Variant = Starts.startedVariant(Begin);
  if (Variant.empty())
    Ctx.checkNoWait(Begin, "a synchronous call of '" + MD->getQualifiedNameAsString() +
                               "', which may be remote,");
  const RemoteClass &Unit = Ctx.Gen->unitFor(MD);
  Ctx.Gen->use(Unit, M, Variant);
  Ctx.noteUse(Unit);
  return "::poc_gen::" + Unit.Id + "_client::" + M.Key + Variant + "(";
}

bool CallRewriter::rewriteProcessOperator(const CXXOperatorCallExpr *E) {
  // A member operator of the object `*p`.
  const auto *MD = dyn_cast_or_null<CXXMethodDecl>(E->getDirectCallee());
  if (!MD || MD->isStatic() || E->getNumArgs() == 0)
    return false;
  const Expr *Object = E->getArg(0);
  // A const operator sees `*p` converted to const: look through that too.
  const auto *UO = dyn_cast<UnaryOperator>(Object->IgnoreParenImpCasts());
  // `*this` is the process's own object, never another process.
  if (!UO || UO->getOpcode() != UO_Deref ||
      isa<CXXThisExpr>(UO->getSubExpr()->IgnoreParenImpCasts()))
    return false;
  const CXXRecordDecl *Pointee = UO->getSubExpr()->getType()->getPointeeCXXRecordDecl();
  if (!Pointee || !Ctx.Model->isRemotable(Pointee))
    return false;
  const OverloadedOperatorKind Op = E->getOperator();
  const RemoteMethod *M = Op == OO_Call || Op == OO_Subscript ? Ctx.Gen->methodFor(MD) : nullptr;
  if (!M) {
    Ctx.Diags.report(E->getOperatorLoc(), Diag::Unsupported)
        << ("calling '" + MD->getNameAsString() +
            "' through a pointer that may refer to another process (only "
            "operator() and operator[] are remote calls); call a named method "
            "instead");
    return true;
  }
  if (!Ctx.rewritable(E) || !Ctx.checkProblem(*M, nullptr, nullptr, E->getOperatorLoc()))
    return true;
  Ctx.checkArrayArgs(*M, llvm::ArrayRef<const Expr *>(E->getArgs() + 1, E->getNumArgs() - 1));
  Ctx.R.InsertTextBefore(Ctx.SM->getExpansionLoc(Object->getBeginLoc()),
                         clientWrapper(MD, *M, E->getBeginLoc()) + "&");
  // What follows the object: "(args)" or "[index]"; its closing token
  // becomes the wrapper's closing parenthesis.
  SourceLocation Close = Ctx.SM->getExpansionLoc(E->getEndLoc());
  rewriteCallArgs(Ctx.afterToken(Ctx.SM->getExpansionLoc(Object->getEndLoc())), E->getArgs() + 1,
                  E->getNumArgs() - 1, Close, true);
  if (Op == OO_Subscript)
    Ctx.replace(Close, Ctx.afterToken(Close), ")");
  return true;
}

bool CallRewriter::VisitCallExpr(CallExpr *E) {
  checkWaitingCall(E);
  if (isa<CXXMemberCallExpr>(E))
    return true;
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(E); Op && rewriteProcessOperator(Op))
    return true;
  if (rewriteDependentCall(E))
    return true;
  // A method of a local object in a template: `start obj.f()` with a
  // dependent `obj`.
  const Expr *Callee = E->getCallee()->IgnoreParens();
  if (isa<CXXDependentScopeMemberExpr>(Callee) || isa<UnresolvedMemberExpr>(Callee))
    return Starts.startOnObjectIfStarted(E, Callee);
  return Starts.startLocalIfStarted(E);
}

bool CallRewriter::rewriteDependentCall(const CallExpr *E) {
  // The callee of a call whose method overload resolution has not chosen
  // yet: a member of a dependent type, an overload set, or a method called
  // with type-dependent arguments.
  const Expr *Callee = E->getCallee()->IgnoreParens();
  const Expr *Base = nullptr;
  DeclarationName Name;
  bool Arrow = false, Implicit = false, Explicit = false;
  // The two kinds of unresolved member reference have the same accessors.
  auto unresolved = [&](const auto *Member, DeclarationName MemberName) {
    Implicit = Member->isImplicitAccess();
    Base = Member->getBase();
    Name = MemberName;
    Arrow = Member->isArrow();
    Explicit = Member->hasExplicitTemplateArgs();
  };
  if (const auto *D = dyn_cast<CXXDependentScopeMemberExpr>(Callee)) {
    unresolved(D, D->getMember());
  } else if (const auto *U = dyn_cast<UnresolvedMemberExpr>(Callee)) {
    unresolved(U, U->getMemberName());
  } else if (const auto *M = dyn_cast<MemberExpr>(Callee)) {
    const auto *MD = dyn_cast<CXXMethodDecl>(M->getMemberDecl());
    if (!MD || MD->isStatic())
      return false;
    Base = M->getBase();
    Name = MD->getDeclName();
    Arrow = M->isArrow();
    Explicit = M->hasExplicitTemplateArgs();
  } else {
    return false;
  }
  if (Implicit || !Base || Explicit || !Name.isIdentifier() ||
      isa<CXXThisExpr>(Base->IgnoreParenImpCasts()))
    return false;
  // Through a pointer: `p->f()` or `(*p).f()`.
  const Expr *Pointer = Base;
  if (!Arrow) {
    const auto *UO = dyn_cast<UnaryOperator>(Base->IgnoreParens());
    if (!UO || UO->getOpcode() != UO_Deref)
      return false;
    Pointer = UO->getSubExpr();
  }
  QualType PT = Pointer->getType();
  if (!PT->isDependentType()) {
    const CXXRecordDecl *RD =
        PT->isPointerType() ? PT->getPointeeType()->getAsCXXRecordDecl() : nullptr;
    if (!RD || !Ctx.Model->isRemotable(RD))
      return false;
  }
  llvm::StringRef Method = Name.getAsIdentifierInfo()->getName();
  if (!Ctx.dependent().isRemoteName(Method))
    return false; // no process has such a method: always a local call
  if (!Ctx.rewritable(E))
    return true;
  std::string Variant = Starts.startedVariant(E->getBeginLoc());
  Ctx.R.InsertTextBefore(Ctx.SM->getExpansionLoc(Base->getBeginLoc()),
                         Ctx.dependent().use(Method, Variant) + "(" + (Arrow ? "" : "&"));
  rewriteCallArgs(Ctx.afterToken(Ctx.SM->getExpansionLoc(Base->getEndLoc())), E->getArgs(),
                  E->getNumArgs(), Ctx.SM->getExpansionLoc(E->getRParenLoc()), true);
  return true;
}

} // namespace pocc
