//===- StartRewriter.cpp - `start`: what a start keyword starts -----------===//
#include "pocc/StartRewriter.h"

#include "clang/AST/ParentMapContext.h"

using namespace clang;

namespace pocc {

void StartRewriter::reportStrayStarts() {
  for (const auto &[FID, Offsets] : StartOffsets)
    for (const auto &Started : Offsets)
      Ctx.Diags.report(Ctx.SM->getComposedLoc(FID, Started.second), Diag::StartNotACall);
}

bool StartRewriter::takeStart(SourceLocation Begin) {
  if (StartOffsets.empty() || !Ctx.inUserFile(Begin))
    return false;
  SourceLocation L = Ctx.SM->getExpansionLoc(Begin);
  auto File = StartOffsets.find(Ctx.SM->getFileID(L));
  if (File == StartOffsets.end())
    return false;
  unsigned Off = Ctx.SM->getFileOffset(L);
  auto It = File->second.find(Off);
  if (It == File->second.end())
    return false;
  // Remove the blanks or the parse-only marker the pre-pass left.
  LastStartKeyword = Ctx.SM->getComposedLoc(File->first, It->second);
  Ctx.R.RemoveText(LastStartKeyword, Off - It->second);
  File->second.erase(It);
  return true;
}

bool StartRewriter::isDiscarded() {
  // The value is passed on, and dropped where its enclosing expression's
  // is, by the right operand of a comma and by a comma fold
  // (`(start ps->f(), ...);`); the left operand of a comma and a cast to
  // void drop it.
  size_t I = Ctx.Parents.size() - 1; // the expression, then what passes it on
  for (;;) {
    size_t P = I;
    while (P > 0 && isImplicitWrapper(Ctx.Parents[P - 1]))
      --P;
    if (P-- == 0)
      return false; // at the top: a global initialiser
    const Stmt *Parent = Ctx.Parents[P];
    const auto *BO = dyn_cast<BinaryOperator>(Parent);
    const auto *Fold = dyn_cast<CXXFoldExpr>(Parent);
    if (BO && BO->getOpcode() == BO_Comma && BO->getLHS() == Ctx.Parents[P + 1])
      return true;
    if ((BO && BO->getOpcode() == BO_Comma) || (Fold && Fold->getOperator() == BO_Comma)) {
      I = P;
      continue;
    }
    if (const auto *Cast = dyn_cast<ExplicitCastExpr>(Parent))
      return Cast->getType()->isVoidType();
    // Used: an operand, an initialiser (DeclStmt) or a global initialiser.
    return !isa<Expr>(Parent) && !isa<DeclStmt>(Parent);
  }
}

/// True if \p P is the parse-only `_Pst ^ operand` of a `start` whose value
/// is used (poc_start_marker.hpp).
static bool isStartMarker(const Stmt *P) {
  const Expr *LHS = nullptr;
  if (const auto *OC = dyn_cast_or_null<CXXOperatorCallExpr>(P);
      OC && OC->getOperator() == OO_Caret && OC->getNumArgs() == 2)
    LHS = OC->getArg(0);
  else if (const auto *BO = dyn_cast_or_null<BinaryOperator>(P); BO && BO->getOpcode() == BO_Xor)
    LHS = BO->getLHS();
  const CXXRecordDecl *RD = LHS ? LHS->getType()->getAsCXXRecordDecl() : nullptr;
  return RD && RD->getName() == "StartMarker";
}

std::string StartRewriter::operatorBefore(SourceLocation Keyword) const {
  // Only an operator's characters can come right before a `start` the
  // pre-pass blanked (StartKeyword.cpp, positionAfter), and the parse-only
  // marker of a `start` whose value is used is no operand.
  bool Invalid = false;
  StringRef Text = Ctx.SM->getBufferData(Ctx.SM->getFileID(Keyword), &Invalid);
  unsigned At = Ctx.SM->getFileOffset(Keyword);
  if (Invalid || Text.substr(At).starts_with("_Pst"))
    return "";
  StringRef Before = Text.take_front(At).rtrim();
  static const char *const Operators[] = {
      "<<=", ">>=", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||", "+=", "-=", "*=", "/=",
      "%=",  "&=",  "|=", "^=", "+",  "-",  "*",  "/",  "%",  "&",  "|",  "^",  "!",  "~"};
  for (const char *Op : Operators)
    if (Before.ends_with(Op))
      return Op;
  return "";
}

bool StartRewriter::takeStartOf(SourceLocation Begin) {
  if (!takeStart(Begin))
    return false;
  // A fold's operand gets no marker from the pre-pass (it cannot be a
  // binary expression), so its type during the parse is the call's own:
  // only a comma fold, whose values are dropped, is right.
  const Stmt *P = Ctx.parentOfCurrent();
  // An operand of an operator (`x + start p->f()`) is blanked by the
  // pre-pass: its value would be a future. (The pre-pass's marker,
  // `_Pst ^ call`, is an operator too.)
  std::string Op;
  if (const auto *BO = dyn_cast_or_null<BinaryOperator>(P); BO && BO->getOpcode() != BO_Comma)
    Op = BinaryOperator::getOpcodeStr(BO->getOpcode()).str();
  if (const auto *UO = dyn_cast_or_null<UnaryOperator>(P))
    Op = UnaryOperator::getOpcodeStr(UO->getOpcode()).str();
  if (const auto *OC = dyn_cast_or_null<CXXOperatorCallExpr>(P);
      OC && OC->getOperator() != OO_Call && OC->getOperator() != OO_Subscript)
    Op = getOperatorSpelling(OC->getOperator());
  // A void call as an operand (`1 + start p->g()`) is no valid operand even
  // without the `start`: Sema kept it in a recovery expression (its error is
  // not shown, UserSourcePrinter::isStartedVoidCall). The operator is the
  // token before the keyword.
  if (isa_and_nonnull<RecoveryExpr>(P))
    Op = operatorBefore(LastStartKeyword);
  if (!Op.empty() && Op != "=" && !isStartMarker(P)) {
    Ctx.Diags.report(LastStartKeyword, Diag::Unsupported)
        << ("'start' on an operand of '" + Op +
            "' (a started call's value is a poc::future); start the call in a statement "
            "or an initialiser of its own, auto f = start p->f();, and use f.get()");
    return true;
  }
  if (const auto *F = dyn_cast_or_null<CXXFoldExpr>(P); F && F->getOperator() != BO_Comma) {
    Ctx.Diags.report(LastStartKeyword, Diag::Unsupported)
        << ("'start' on an operand of a fold expression over '" +
            std::string(BinaryOperator::getOpcodeStr(F->getOperator())) +
            "'; start the calls with a comma fold, (start p->f(), ...), or parenthesise the "
            "started call, ((start p->f()).get() + ...)");
  }
  return true;
}

std::string StartRewriter::startedVariant(SourceLocation Begin) {
  if (!takeStartOf(Begin))
    return "";
  return isDiscarded() ? "_start" : "_future";
}

/// True if \p S refers to `this` (explicitly or through an implicit member
/// access), so that a task made of it must capture `this`.
static bool usesThis(const Stmt *S) {
  if (!S)
    return false;
  if (isa<CXXThisExpr>(S))
    return true;
  // In a template, a member of a dependent base is named without `this`.
  if (const auto *D = dyn_cast<CXXDependentScopeMemberExpr>(S); D && D->isImplicitAccess())
    return true;
  if (const auto *U = dyn_cast<UnresolvedMemberExpr>(S); U && U->isImplicitAccess())
    return true;
  for (const Stmt *Child : S->children())
    if (usesThis(Child))
      return true;
  return false;
}

/// True if an argument of \p E refers to `this`.
static bool argumentsUseThis(const CallExpr *E) {
  for (const Expr *Arg : E->arguments())
    if (usesThis(Arg))
      return true;
  return false;
}

bool StartRewriter::startOnObjectIfStarted(const CallExpr *E, const Expr *Member) {
  // The member expression's parts, for a resolved or a dependent member.
  const Expr *Base = nullptr;
  bool Arrow = false, Implicit = false;
  SourceLocation Name; // where the qualifier, `template` or the name begins
  auto parts = [&](const auto *M) {
    Implicit = M->isImplicitAccess();
    Base = Implicit ? nullptr : M->getBase();
    Arrow = M->isArrow();
    Name = M->getTemplateKeywordLoc().isValid() ? M->getTemplateKeywordLoc()
           : M->getQualifierLoc()               ? M->getQualifierLoc().getBeginLoc()
                                                : M->getMemberLoc();
  };
  if (const auto *M = dyn_cast<MemberExpr>(Member))
    parts(M);
  else if (const auto *D = dyn_cast<CXXDependentScopeMemberExpr>(Member))
    parts(D);
  else if (const auto *U = dyn_cast<UnresolvedMemberExpr>(Member))
    parts(U);
  else
    return startLocalIfStarted(E);
  // A method of a temporary has no object to keep: a task on a copy.
  if (!Implicit && !Arrow && Base->isPRValue())
    return startLocalIfStarted(E);
  if (!takeStartOf(E->getBeginLoc()) || !Ctx.rewritable(E))
    return true;
  if (const auto *Ref = dyn_cast_or_null<DeclRefExpr>(Base ? Base->IgnoreParenImpCasts() : nullptr);
      Ref && !Arrow && !Ref->refersToEnclosingVariableOrCapture())
    if (const auto *VD = dyn_cast<VarDecl>(Ref->getDecl());
        VD && VD->hasLocalStorage() && !VD->getType()->isReferenceType())
      guardStartedObject(VD, E->getBeginLoc());
  // The call runs on the object itself, through its address, after the
  // calls started on it before (poc/start_on.hpp); the arguments are
  // copied into the task, as they are sent to a process.
  // The object is passed to the task; `this` is captured only for the
  // arguments' sake.
  const auto *MD = dyn_cast_or_null<CXXMethodDecl>(Ctx.CurrentFunction);
  bool HasThis = MD && MD->isInstance() && argumentsUseThis(E);
  std::string Open = isDiscarded() ? "::poc::start_on(" : "::poc::start_on_future(";
  std::string Task =
      std::string(HasThis ? "[=, this]" : "[=]") + "(auto *poc_self) mutable { return poc_self->";
  Name = Ctx.SM->getExpansionLoc(Name);
  if (Implicit) {
    Ctx.R.InsertTextBefore(Name, Open + "this, " + Task);
  } else {
    Ctx.R.InsertTextBefore(Ctx.SM->getExpansionLoc(Base->getBeginLoc()),
                           Open + (Arrow ? "" : "::std::addressof("));
    Ctx.replace(Ctx.afterToken(Ctx.SM->getExpansionLoc(Base->getEndLoc())), Name,
                std::string(Arrow ? "" : ")") + ", " + Task);
  }
  Ctx.R.InsertTextAfterToken(Ctx.SM->getExpansionLoc(E->getEndLoc()), "; })");
  return true;
}

void StartRewriter::guardStartedObject(const VarDecl *VD, SourceLocation Start) {
  if (!GuardedObjects.insert(VD).second)
    return;
  std::string Name = VD->getNameAsString();
  std::string Guard =
      " ::poc::started_calls_guard poc_started_calls_" + Name + "(::std::addressof(" + Name + "));";
  // Right after the variable's declaration in its block: constructed after
  // it, so destroyed before it.
  DynTypedNodeList Owners = Ctx.AST->getParents(*VD);
  const auto *Decl = Owners.empty() ? nullptr : Owners[0].get<DeclStmt>();
  if (Decl) {
    DynTypedNodeList Outer = Ctx.AST->getParents(*Decl);
    if (!Outer.empty() && Outer[0].get<CompoundStmt>()) {
      Ctx.R.InsertTextAfterToken(Ctx.SM->getExpansionLoc(Decl->getEndLoc()), Guard);
      return;
    }
  }
  // A parameter, or a variable of a `for`, `if` or `switch` header: at the
  // beginning of the innermost block around the call that is in its scope.
  for (size_t I = Ctx.Parents.size(); I-- > 0;)
    if (const auto *Block = dyn_cast<CompoundStmt>(Ctx.Parents[I])) {
      if (Ctx.SM->isBeforeInTranslationUnit(VD->getLocation(), Block->getLBracLoc()))
        Ctx.R.InsertTextAfterToken(Ctx.SM->getExpansionLoc(Block->getLBracLoc()), Guard);
      else
        break;
      return;
    }
  Ctx.Diags.report(Start, Diag::Unsupported)
      << ("'start' on local variable '" + Name +
          "' where poc++ cannot make its end wait for the calls started on it; put the "
          "statement in braces");
}

bool StartRewriter::startLocalIfStarted(const Expr *E) {
  if (takeStartOf(E->getBeginLoc()))
    startLocal(E);
  return true;
}

void StartRewriter::startLocal(const Expr *E) {
  if (!Ctx.rewritable(E))
    return;
  if (!isDiscarded()) {
    Ctx.Diags.report(E->getBeginLoc(), Diag::Unsupported)
        << "the result of a started local call; use 'start' as a "
           "statement and poc::sync(), or start a method of a process";
    return;
  }
  const auto *MD = dyn_cast_or_null<CXXMethodDecl>(Ctx.CurrentFunction);
  bool HasThis = MD && MD->isInstance() && usesThis(E);
  Ctx.R.InsertTextBefore(Ctx.SM->getExpansionLoc(E->getBeginLoc()),
                         HasThis ? "::poc::start_local([=, this]() mutable { "
                                 : "::poc::start_local([=]() mutable { ");
  Ctx.R.InsertTextAfterToken(Ctx.SM->getExpansionLoc(E->getEndLoc()), "; })");
}

} // namespace pocc
