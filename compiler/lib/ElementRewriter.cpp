//===- ElementRewriter.cpp - Elements of remote arrays --------------------===//
#include "pocc/ElementRewriter.h"

using namespace clang;

namespace pocc {

bool ElementRewriter::VisitArraySubscriptExpr(ArraySubscriptExpr *E) {
  const Expr *Base = E->getBase();
  if (Base != E->getLHS() || !isScalarPointer(Base->getType()) ||
      !Ctx.Model->mayBeRemoteArray(Base))
    return true;
  rewriteElement(E, Base, E->getIdx());
  return true;
}

bool ElementRewriter::VisitUnaryOperator(UnaryOperator *E) {
  if (E->getOpcode() != UO_Deref)
    return true;
  const Expr *Sub = E->getSubExpr();
  if (!isScalarPointer(Sub->getType()) || !Ctx.Model->mayBeRemoteArray(Sub))
    return true;
  rewriteElement(E, Sub, nullptr);
  return true;
}

ElementUse ElementRewriter::elementUse(const Expr *E, size_t At) const {
  // The innermost enclosing node that is neither parentheses nor a
  // conversion to const (which keeps the lvalue for a const reference):
  // another implicit conversion (lvalue-to-rvalue) means the value is used;
  // so does anything else that does not bind the lvalue.
  const Stmt *Parent = nullptr;
  const Expr *Operand = E;
  while (At-- > 0) {
    Parent = Ctx.Parents[At];
    const auto *Cast = dyn_cast<ImplicitCastExpr>(Parent);
    if (!isa<ParenExpr>(Parent) && !(Cast && Cast->getCastKind() == CK_NoOp))
      break;
    Operand = cast<Expr>(Parent);
    Parent = nullptr;
  }
  if (!Parent || isa<ImplicitCastExpr>(Parent))
    return ElementUse::Read;
  if (const auto *ME = dyn_cast<MemberExpr>(Parent)) {
    // A member of an element: reading a field or calling a const method
    // reads the element; anything that would change it in place cannot be
    // done on a copy.
    if (const auto *MD = dyn_cast<CXXMethodDecl>(ME->getMemberDecl()))
      return MD->isConst() || MD->isStatic() ? ElementUse::Read : ElementUse::Reference;
    ElementUse MemberUse = elementUse(ME, At);
    return MemberUse == ElementUse::Read ? ElementUse::Read : ElementUse::Reference;
  }
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Parent))
    if (Op->getNumArgs() > 0 && Op->getArg(0) == Operand &&
        (Op->isAssignmentOp() || Op->getOperator() == OO_PlusPlus ||
         Op->getOperator() == OO_MinusMinus))
      return ElementUse::Write;
  if (const auto *UO = dyn_cast<UnaryOperator>(Parent)) {
    if (UO->getOpcode() == UO_AddrOf)
      return ElementUse::Address;
    return UO->isIncrementDecrementOp() ? ElementUse::Write : ElementUse::Read;
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(Parent))
    return BO->isAssignmentOp() && BO->getLHS() == Operand ? ElementUse::Write : ElementUse::Read;
  auto bindsMutable = [](QualType T) {
    return T->isLValueReferenceType() && !T.getNonReferenceType().isConstQualified();
  };
  // Parameter \p I of \p FD binds the lvalue for writing; a forwarding
  // reference (T&& in the template) takes the value read just as well.
  auto paramBindsMutable = [&](const FunctionDecl *FD, unsigned I) {
    const FunctionDecl *Pattern = FD->getTemplateInstantiationPattern();
    if (Pattern && I < Pattern->getNumParams() &&
        Pattern->getParamDecl(I)->getType()->isRValueReferenceType())
      return false;
    return bindsMutable(FD->getParamDecl(I)->getType());
  };
  if (const auto *DS = dyn_cast<DeclStmt>(Parent)) {
    for (const Decl *D : DS->decls())
      if (const auto *VD = dyn_cast<VarDecl>(D))
        if (VD->getInit() == Operand) {
          // decltype(auto) x = p[i] is a copy: the rewritten read is a prvalue.
          const AutoType *AT = VD->getType()->getContainedAutoType();
          if (AT && AT->isDecltypeAuto())
            return ElementUse::Read;
          // A reference variable, even a const one, would see later writes
          // to a local element but not to a remote one: refuse both alike.
          return VD->getType()->isReferenceType() ? ElementUse::Reference : ElementUse::Read;
        }
    return ElementUse::Read;
  }
  if (const auto *Call = dyn_cast<CallExpr>(Parent)) {
    const auto *FD = Call->getDirectCallee();
    unsigned Shift = isa<CXXOperatorCallExpr>(Call) && isa<CXXMethodDecl>(FD) ? 1 : 0;
    for (unsigned I = 0; FD && I < Call->getNumArgs(); ++I)
      if (Call->getArg(I) == Operand && I >= Shift && I - Shift < FD->getNumParams())
        return paramBindsMutable(FD, I - Shift) ? ElementUse::Reference : ElementUse::Read;
    return ElementUse::Read;
  }
  if (const auto *Construct = dyn_cast<CXXConstructExpr>(Parent)) {
    const CXXConstructorDecl *Ctor = Construct->getConstructor();
    for (unsigned I = 0; I < Construct->getNumArgs() && I < Ctor->getNumParams(); ++I)
      if (Construct->getArg(I) == Operand)
        return paramBindsMutable(Ctor, I) ? ElementUse::Reference : ElementUse::Read;
    return ElementUse::Read;
  }
  if (isa<ReturnStmt>(Parent) && Ctx.CurrentFunction &&
      bindsMutable(Ctx.CurrentFunction->getReturnType()))
    return ElementUse::Reference;
  return ElementUse::Read;
}

void ElementRewriter::rewriteElement(const Expr *E, const Expr *Base, const Expr *Idx) {
  ElementUse Use = elementUse(E, Ctx.Parents.size() - 1);
  if (Use == ElementUse::Address)
    return; // &data[i] computes an address, it reads nothing
  if (Use == ElementUse::Reference) {
    Ctx.Diags.report(E->getBeginLoc(), Diag::RemoteElementReference);
    return;
  }
  if (!Ctx.rewritable(E))
    return;
  llvm::StringRef Fn = Use == ElementUse::Write ? "::poc::element(" : "::poc::element_value(";
  SourceLocation BaseBegin = Ctx.SM->getExpansionLoc(Base->getBeginLoc());
  SourceLocation BaseEnd = Ctx.afterToken(Ctx.SM->getExpansionLoc(Base->getEndLoc()));
  if (!Idx) {
    // *p -> fn(p, 0)
    Ctx.replace(Ctx.SM->getExpansionLoc(E->getBeginLoc()), BaseBegin, Fn);
    Ctx.R.InsertTextAfterToken(Ctx.SM->getExpansionLoc(Base->getEndLoc()), ", 0)");
    return;
  }
  // p[i] -> fn(p, i)
  Ctx.R.InsertTextBefore(BaseBegin, Fn);
  Ctx.replace(BaseEnd, Ctx.SM->getExpansionLoc(Idx->getBeginLoc()), ", ");
  Ctx.replace(
      Ctx.afterToken(Ctx.SM->getExpansionLoc(Idx->getEndLoc())),
      Ctx.afterToken(Ctx.SM->getExpansionLoc(cast<ArraySubscriptExpr>(E)->getRBracketLoc())), ")");
}

} // namespace pocc
