//===- RewriteVisitor.cpp - The rewrites of process operations ------------===//
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

void RewriteVisitor::reportStrayStarts() {
  for (const auto &[FID, Offsets] : StartOffsets)
    for (const auto &Started : Offsets)
      Diags.report(SM->getComposedLoc(FID, Started.second), Diag::StartNotACall);
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

bool RewriteVisitor::takeStart(SourceLocation Begin) {
  if (StartOffsets.empty() || !inUserFile(Begin))
    return false;
  SourceLocation L = SM->getExpansionLoc(Begin);
  auto File = StartOffsets.find(SM->getFileID(L));
  if (File == StartOffsets.end())
    return false;
  unsigned Off = SM->getFileOffset(L);
  auto It = File->second.find(Off);
  if (It == File->second.end())
    return false;
  // Remove the blanks or the parse-only marker the pre-pass left.
  LastStartKeyword = SM->getComposedLoc(File->first, It->second);
  R.RemoveText(LastStartKeyword, Off - It->second);
  File->second.erase(It);
  return true;
}

bool RewriteVisitor::isDiscarded() {
  // The value is passed on, and dropped where its enclosing expression's
  // is, by the right operand of a comma and by a comma fold
  // (`(start ps->f(), ...);`); the left operand of a comma and a cast to
  // void drop it.
  size_t I = Parents.size() - 1; // the expression, then what passes it on
  for (;;) {
    size_t P = I;
    while (P > 0 && isImplicitWrapper(Parents[P - 1]))
      --P;
    if (P-- == 0)
      return false; // at the top: a global initialiser
    const Stmt *Parent = Parents[P];
    const auto *BO = dyn_cast<BinaryOperator>(Parent);
    const auto *Fold = dyn_cast<CXXFoldExpr>(Parent);
    if (BO && BO->getOpcode() == BO_Comma && BO->getLHS() == Parents[P + 1])
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

bool RewriteVisitor::takeStartOf(SourceLocation Begin) {
  if (!takeStart(Begin))
    return false;
  // A fold's operand gets no marker from the pre-pass (it cannot be a
  // binary expression), so its type during the parse is the call's own:
  // only a comma fold, whose values are dropped, is right.
  const Stmt *P = parentOfCurrent();
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
  if (!Op.empty() && Op != "=" && !isStartMarker(P)) {
    Diags.report(LastStartKeyword, Diag::Unsupported)
        << ("'start' on an operand of '" + Op +
            "' (a started call's value is a poc::future); start the call in a statement "
            "or an initialiser of its own, auto f = start p->f();, and use f.get()");
    return true;
  }
  if (const auto *F = dyn_cast_or_null<CXXFoldExpr>(P); F && F->getOperator() != BO_Comma) {
    Diags.report(LastStartKeyword, Diag::Unsupported)
        << ("'start' on an operand of a fold expression over '" +
            std::string(BinaryOperator::getOpcodeStr(F->getOperator())) +
            "'; start the calls with a comma fold, (start p->f(), ...), or parenthesise the "
            "started call, ((start p->f()).get() + ...)");
  }
  return true;
}

bool RewriteVisitor::rewritable(const Expr *E) {
  if (E->getBeginLoc().isMacroID() || E->getEndLoc().isMacroID()) {
    Diags.report(E->getBeginLoc(), Diag::Unsupported)
        << "process operations inside macro expansions; write them "
           "outside the macro";
    return false;
  }
  return true;
}

void RewriteVisitor::noteUse(const RemoteClass &C) { Layout.noteUseAt(C, CurrentTop); }

bool RewriteVisitor::checkProblem(const RemoteMethod &M, const CallExpr *Call,
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

void RewriteVisitor::checkArrayArgs(const RemoteMethod &M, llvm::ArrayRef<const Expr *> Args) {
  for (size_t I = 0; I < M.Params.size() && I < Args.size(); ++I) {
    if (M.Params[I].Kind != ParamKind::RemoteArray)
      continue;
    const Expr *A = Args[I]->IgnoreParenImpCasts();
    if (isa<CXXDefaultArgExpr>(A) || isa<CXXNullPtrLiteralExpr>(A) || isa<GNUNullExpr>(A) ||
        A->isNullPointerConstant(*Ctx, Expr::NPC_ValueDependentIsNotNull))
      continue;
    if (!Model->mayBeRemoteArray(Args[I]))
      Diags.report(Args[I]->getBeginLoc(), Diag::LocalPointerToRemote)
          << M.Params[I].Decl->getName() << (M.Decl ? M.Decl->getQualifiedNameAsString() : "");
  }
}

void RewriteVisitor::rewriteCallArgs(SourceLocation AfterCallee, const Expr *const *Args,
                                     unsigned NumArgs, SourceLocation Close, bool HaveLeading) {
  // The first explicit argument; default arguments have no source.
  const Expr *First = nullptr;
  for (unsigned I = 0; I < NumArgs; ++I)
    if (!isa<CXXDefaultArgExpr>(Args[I])) {
      First = Args[I];
      break;
    }
  if (First)
    replace(AfterCallee, SM->getExpansionLoc(First->getBeginLoc()), HaveLeading ? ", " : "");
  else
    replace(AfterCallee, Close, "");
}

bool RewriteVisitor::VisitCXXMemberCallExpr(CXXMemberCallExpr *E) {
  if (!inUserFile(E->getBeginLoc()))
    return true;
  const CXXMethodDecl *MD = E->getMethodDecl();
  const auto *ME = dyn_cast<MemberExpr>(E->getCallee()->IgnoreParens());
  if (!MD || !ME || MD->isStatic())
    return true;
  const Expr *Base = ME->getBase();
  bool Deref = false;
  if (!ME->isArrow()) {
    const auto *UO = dyn_cast<UnaryOperator>(Base->IgnoreParens());
    if (!UO || UO->getOpcode() != UO_Deref)
      return startOnObjectIfStarted(E, ME);
    Deref = true;
  } else if (isa<CXXThisExpr>(Base->IgnoreParenImpCasts())) {
    return startOnObjectIfStarted(E, ME);
  }
  // `(*this).f()`: the process's own object, like `this->f()`.
  if (Deref && isa<CXXThisExpr>(
                   cast<UnaryOperator>(Base->IgnoreParens())->getSubExpr()->IgnoreParenImpCasts()))
    return startOnObjectIfStarted(E, ME);
  QualType PT =
      Deref ? cast<UnaryOperator>(Base->IgnoreParens())->getSubExpr()->getType() : Base->getType();
  const CXXRecordDecl *Pointee =
      PT->isPointerType() ? PT->getPointeeType()->getAsCXXRecordDecl() : nullptr;
  if (!Pointee || !Model->isRemotable(Pointee))
    return startOnObjectIfStarted(E, ME);
  if (!rewritable(E))
    return true;
  const RemoteMethod *M = Gen->methodFor(MD);
  if (!M) {
    if (MD->getAccess() != AS_public)
      Diags.report(ME->getMemberLoc(), Diag::RemoteCallToPrivate)
          << MD->getName() << MD->getParent()->getName();
    else
      Diags.report(ME->getMemberLoc(), Diag::Unsupported)
          << ("calling '" + MD->getNameAsString() +
              "' through a pointer that may refer to another process");
    return true;
  }
  if (!checkProblem(*M, E, nullptr, ME->getMemberLoc()))
    return true;
  checkArrayArgs(*M, llvm::ArrayRef<const Expr *>(E->getArgs(), E->getNumArgs()));
  R.InsertTextBefore(SM->getExpansionLoc(Base->getBeginLoc()),
                     clientWrapper(MD, *M, E->getBeginLoc()) + (Deref ? "&" : ""));
  rewriteCallArgs(afterToken(SM->getExpansionLoc(Base->getEndLoc())), E->getArgs(), E->getNumArgs(),
                  SM->getExpansionLoc(E->getRParenLoc()), true);
  return true;
}

std::string RewriteVisitor::clientWrapper(const CXXMethodDecl *MD, const RemoteMethod &M,
                                          SourceLocation Begin) {
  std::string Variant;
  if (takeStartOf(Begin))
    Variant = isDiscarded() ? "_start" : "_future";
  const RemoteClass &Unit = Gen->unitFor(MD);
  Gen->use(Unit, M, Variant);
  noteUse(Unit);
  return "::poc_gen::" + Unit.Id + "_client::" + M.Key + Variant + "(";
}

bool RewriteVisitor::rewriteProcessOperator(const CXXOperatorCallExpr *E) {
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
  if (!Pointee || !Model->isRemotable(Pointee))
    return false;
  const OverloadedOperatorKind Op = E->getOperator();
  const RemoteMethod *M = Op == OO_Call || Op == OO_Subscript ? Gen->methodFor(MD) : nullptr;
  if (!M) {
    Diags.report(E->getOperatorLoc(), Diag::Unsupported)
        << ("calling '" + MD->getNameAsString() +
            "' through a pointer that may refer to another process (only "
            "operator() and operator[] are remote calls); call a named method "
            "instead");
    return true;
  }
  if (!rewritable(E) || !checkProblem(*M, nullptr, nullptr, E->getOperatorLoc()))
    return true;
  checkArrayArgs(*M, llvm::ArrayRef<const Expr *>(E->getArgs() + 1, E->getNumArgs() - 1));
  R.InsertTextBefore(SM->getExpansionLoc(Object->getBeginLoc()),
                     clientWrapper(MD, *M, E->getBeginLoc()) + "&");
  // What follows the object: "(args)" or "[index]"; its closing token
  // becomes the wrapper's closing parenthesis.
  SourceLocation Close = SM->getExpansionLoc(E->getEndLoc());
  rewriteCallArgs(afterToken(SM->getExpansionLoc(Object->getEndLoc())), E->getArgs() + 1,
                  E->getNumArgs() - 1, Close, true);
  if (Op == OO_Subscript)
    replace(Close, afterToken(Close), ")");
  return true;
}

bool RewriteVisitor::startOnObjectIfStarted(const CallExpr *E, const Expr *Member) {
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
  if (!takeStartOf(E->getBeginLoc()) || !rewritable(E))
    return true;
  // The call runs on the object itself, through its address, after the
  // calls started on it before (poc/start_on.hpp); the arguments are
  // copied into the task, as they are sent to a process.
  const auto *MD = dyn_cast_or_null<CXXMethodDecl>(CurrentFunction);
  bool HasThis = MD && MD->isInstance();
  std::string Open = isDiscarded() ? "::poc::start_on(" : "::poc::start_on_future(";
  std::string Task = std::string(HasThis ? "[=, this]" : "[=]") +
                     "(auto *poc_self) mutable { return poc_self->";
  Name = SM->getExpansionLoc(Name);
  if (Implicit) {
    R.InsertTextBefore(Name, Open + "this, " + Task);
  } else {
    R.InsertTextBefore(SM->getExpansionLoc(Base->getBeginLoc()),
                       Open + (Arrow ? "" : "::std::addressof("));
    replace(afterToken(SM->getExpansionLoc(Base->getEndLoc())), Name,
            std::string(Arrow ? "" : ")") + ", " + Task);
  }
  R.InsertTextAfterToken(SM->getExpansionLoc(E->getEndLoc()), "; })");
  return true;
}

bool RewriteVisitor::startLocalIfStarted(const Expr *E) {
  if (takeStartOf(E->getBeginLoc()))
    startLocal(E);
  return true;
}

void RewriteVisitor::startLocal(const Expr *E) {
  if (!rewritable(E))
    return;
  if (!isDiscarded()) {
    Diags.report(E->getBeginLoc(), Diag::Unsupported)
        << "the result of a started local call; use 'start' as a "
           "statement and poc::sync(), or start a method of a process";
    return;
  }
  const auto *MD = dyn_cast_or_null<CXXMethodDecl>(CurrentFunction);
  bool HasThis = MD && MD->isInstance();
  R.InsertTextBefore(SM->getExpansionLoc(E->getBeginLoc()),
                     HasThis ? "::poc::start_local([=, this]() mutable { "
                             : "::poc::start_local([=]() mutable { ");
  R.InsertTextAfterToken(SM->getExpansionLoc(E->getEndLoc()), "; })");
}

bool RewriteVisitor::VisitCallExpr(CallExpr *E) {
  if (!inUserFile(E->getBeginLoc()))
    return true;
  if (isAddressLiteral(E)) {
    rewriteAddressLiteral(E);
    return true;
  }
  if (const CXXRecordDecl *RD = persistentClass(E))
    checkPersistable(RD, E->getBeginLoc());
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
    return startOnObjectIfStarted(E, Callee);
  return startLocalIfStarted(E);
}

bool RewriteVisitor::rewriteDependentCall(const CallExpr *E) {
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
    if (!RD || !Model->isRemotable(RD))
      return false;
  }
  llvm::StringRef Method = Name.getAsIdentifierInfo()->getName();
  if (!dependent().isRemoteName(Method))
    return false; // no process has such a method: always a local call
  if (!rewritable(E))
    return true;
  std::string Variant;
  if (takeStartOf(E->getBeginLoc()))
    Variant = isDiscarded() ? "_start" : "_future";
  R.InsertTextBefore(SM->getExpansionLoc(Base->getBeginLoc()),
                     dependent().use(Method, Variant) + "(" + (Arrow ? "" : "&"));
  rewriteCallArgs(afterToken(SM->getExpansionLoc(Base->getEndLoc())), E->getArgs(), E->getNumArgs(),
                  SM->getExpansionLoc(E->getRParenLoc()), true);
  return true;
}

void RewriteVisitor::rewriteAddressLiteral(const CallExpr *E) {
  // The conversion that consumes the marker's value, if any, is among the
  // enclosing expressions (Parents.back() is E itself).
  const CXXRecordDecl *RD = nullptr;
  for (size_t I = Parents.size() - 1; I-- > 0;) {
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Parents[I])) {
      RD = persistentClass(MC);
      break;
    }
    if (!isImplicitWrapper(Parents[I]) && !isa<MemberExpr>(Parents[I]))
      break;
  }
  SourceLocation Begin = SM->getExpansionLoc(E->getBeginLoc());
  SourceLocation End = afterToken(SM->getExpansionLoc(E->getEndLoc()));
  // The marker is one character shorter than the literal; drop its padding.
  if (*SM->getCharacterData(End) == ' ')
    End = End.getLocWithOffset(1);
  // The marker's argument is the address as the user wrote it, quoted.
  llvm::StringRef Quoted = Lexer::getSourceText(
      CharSourceRange::getTokenRange(E->getArg(0)->getSourceRange()), *SM, LangOpts);
  if (!RD) {
    // Not a class pointer: the literal was an ordinary string.
    replace(Begin, End, "\"poc://" + Quoted.drop_front(1).str());
    return;
  }
  checkPersistable(RD, Begin);
  replace(Begin, End,
          "::poc::persistent<" + codeSpelling(Ctx->getRecordType(RD), *Ctx) + ">(" + Quoted.str() +
              ")");
}

void RewriteVisitor::checkPersistable(const CXXRecordDecl *RD, SourceLocation At) {
  if (!RD->hasDefinition())
    return; // Clang has reported the incomplete type
  RD = RD->getDefinition();
  if (auto U = Sendable->checkState(RD)) {
    Diags.report(At, Diag::NotPersistable)
        << className(RD)
        << U->Reason + "; or give the class poc_write/poc_read members "
                       "(docs/serialization.md)";
    if (U->Culprit)
      Diags.report(U->Culprit->getLocation(), Diag::DeclaredHere) << U->Culprit->getName();
  } else if (!RD->hasDefaultConstructor()) {
    Diags.report(At, Diag::NotPersistable)
        << className(RD)
        << "it has no default constructor, which activation needs to make "
           "the object its saved state is loaded into";
  }
}

bool RewriteVisitor::VisitBinaryOperator(BinaryOperator *E) {
  // `start p = new(m) T(...)`: the creation is what is started.
  if (E->getOpcode() != BO_Assign || !inUserFile(E->getBeginLoc()))
    return true;
  const auto *New = dyn_cast<CXXNewExpr>(E->getRHS()->IgnoreParenImpCasts());
  if (New && (isRemoteNew(New) || isDependentRemoteNew(New)) && takeStart(E->getBeginLoc()))
    StartedNews.insert(New);
  return true;
}

bool RewriteVisitor::VisitDeclStmt(DeclStmt *S) {
  // `start T* p = new(m) T(...)`.
  if (!S->isSingleDecl() || !inUserFile(S->getBeginLoc()))
    return true;
  const auto *VD = dyn_cast<VarDecl>(S->getSingleDecl());
  const auto *New =
      VD && VD->getInit() ? dyn_cast<CXXNewExpr>(VD->getInit()->IgnoreParenImpCasts()) : nullptr;
  if (New && (isRemoteNew(New) || isDependentRemoteNew(New)) && takeStart(S->getBeginLoc()))
    StartedNews.insert(New);
  return true;
}

void RewriteVisitor::rewriteDependentNew(const CXXNewExpr *E, bool Started) {
  if (E->getInitializationStyle() == CXXNewInitializationStyle::Braces) {
    Diags.report(E->getBeginLoc(), Diag::Unsupported)
        << "creating a process of a template parameter type with braces; write "
           "'new (m) T(args)'";
    return;
  }
  std::string Type =
      Lexer::getSourceText(CharSourceRange::getTokenRange(
                               E->getAllocatedTypeSourceInfo()->getTypeLoc().getSourceRange()),
                           *SM, LangOpts)
          .str();
  const Expr *Where = E->getPlacementArg(0);
  SourceLocation Begin = SM->getExpansionLoc(E->getBeginLoc());
  SourceLocation WhereBegin = SM->getExpansionLoc(Where->getBeginLoc());
  SourceLocation WhereEnd = afterToken(SM->getExpansionLoc(Where->getEndLoc()));
  replace(Begin, WhereBegin, dependent().useCreation(Started) + "<" + Type + ">(");
  SourceRange Parens = E->getDirectInitRange();
  if (Parens.isInvalid()) { // `new (m) T`: the default constructor
    replace(WhereEnd, afterToken(SM->getExpansionLoc(E->getEndLoc())), ")");
    return;
  }
  unsigned Args = 0;
  if (const auto *List = dyn_cast_or_null<ParenListExpr>(E->getInitializer()))
    Args = List->getNumExprs();
  else if (E->getInitializer())
    Args = 1;
  // `) T(` becomes `, ` (or nothing); the arguments and `)` stay.
  replace(WhereEnd, afterToken(SM->getExpansionLoc(Parens.getBegin())), Args ? ", " : "");
}

bool RewriteVisitor::VisitCXXNewExpr(CXXNewExpr *E) {
  if (inUserFile(E->getBeginLoc()) && isDependentRemoteNew(E) && rewritable(E)) {
    rewriteDependentNew(E, StartedNews.count(E) || takeStart(E->getBeginLoc()));
    return true;
  }
  if (!inUserFile(E->getBeginLoc()) || !isRemoteNew(E) || !rewritable(E))
    return true;
  bool Started = StartedNews.count(E) || takeStart(E->getBeginLoc());
  const Expr *Where = E->getPlacementArg(0);
  SourceLocation Begin = SM->getExpansionLoc(E->getBeginLoc());
  SourceLocation WhereBegin = SM->getExpansionLoc(Where->getBeginLoc());
  SourceLocation WhereEnd = afterToken(SM->getExpansionLoc(Where->getEndLoc()));
  SourceLocation End = afterToken(SM->getExpansionLoc(E->getEndLoc()));
  if (E->isArray()) {
    QualType Elem = E->getAllocatedType();
    if (!Elem.isTriviallyCopyableType(*Ctx) || Elem->isPointerType()) {
      Diags.report(E->getBeginLoc(), Diag::RemoteArrayElement) << Elem;
      return true;
    }
    const Expr *Size = *E->getArraySize();
    replace(Begin, WhereBegin, "::poc::create_array<" + codeSpelling(Elem, *Ctx) + ">(");
    replace(WhereEnd, SM->getExpansionLoc(Size->getBeginLoc()), ", ");
    replace(afterToken(SM->getExpansionLoc(Size->getEndLoc())), End, ")");
    return true;
  }
  const CXXConstructExpr *CE = E->getConstructExpr();
  if (!CE) {
    Diags.report(E->getBeginLoc(), Diag::Unsupported)
        << "creating a process of a class without a constructor call "
           "(aggregate initialisation); declare a constructor";
    return true;
  }
  const RemoteClass &C = Gen->classFor(E->getAllocatedType()->getAsCXXRecordDecl());
  if (!C.Concrete) {
    // Abstract classes are Clang's error already; this is the system header.
    Diags.report(E->getBeginLoc(), Diag::Unsupported)
        << "creating a process of '" + C.Decl->getQualifiedNameAsString() +
               "', which is declared in a system header (a header found through "
               "-isystem or a system directory); include its folder with -I";
    return true;
  }
  if (C.Decl->isLocalClass()) {
    // Its interface and server are generated at namespace scope.
    Diags.report(E->getBeginLoc(), Diag::Unsupported)
        << "creating a process of '" + C.Decl->getNameAsString() +
               "', a class defined inside a function; define it at namespace scope";
    return true;
  }
  const RemoteMethod *M = Gen->methodFor(CE->getConstructor());
  if (!M) {
    Diags.report(E->getBeginLoc(), Diag::Unsupported)
        << "creating a process with a copy, move or non-public constructor";
    return true;
  }
  if (!checkProblem(*M, nullptr, CE, E->getBeginLoc()))
    return true;
  llvm::SmallVector<const Expr *, 4> Args(CE->arg_begin(), CE->arg_end());
  checkArrayArgs(*M, Args);
  bool Persistent = isPersistentNew(E);
  if (Persistent && Started) {
    Diags.report(E->getBeginLoc(), Diag::Unsupported)
        << "'start' before a persistent creation (its state is saved before "
           "it returns); create it, then start calls on it";
    return true;
  }
  if (Persistent)
    checkPersistable(C.Decl, E->getBeginLoc());
  std::string Kind = Persistent ? "make_persistent" : Started ? "start_create" : "create";
  Gen->use(C, *M, Kind);
  noteUse(C);
  replace(Begin, WhereBegin,
          "::poc_gen::" + C.Id + "_client::" + Kind + "_" + M->Key.substr(5) + "(");
  const Expr *Last = nullptr;
  const Expr *First = nullptr;
  for (const Expr *A : Args)
    if (!isa<CXXDefaultArgExpr>(A)) {
      if (!First)
        First = A;
      Last = A;
    }
  if (First) {
    replace(WhereEnd, SM->getExpansionLoc(First->getBeginLoc()), ", ");
    replace(afterToken(SM->getExpansionLoc(Last->getEndLoc())), End, ")");
  } else {
    replace(WhereEnd, End, ")");
  }
  return true;
}

bool RewriteVisitor::VisitCXXDeleteExpr(CXXDeleteExpr *E) {
  if (!inUserFile(E->getBeginLoc()))
    return true;
  const Expr *Arg = E->getArgument();
  QualType T = Arg->IgnoreImpCasts()->getType();
  const char *Fn = nullptr;
  if (T->isDependentType()) {
    // In a template, `delete p` of a dependent `T*` may end a process:
    // ::poc::destroy deletes a local object and ends a remote one.
    if (!E->isArrayForm())
      Fn = "::poc::destroy(";
  } else if (!T->isPointerType()) {
    return true;
  } else if (E->isArrayForm()) {
    if (isScalarPointer(T) && Model->mayBeRemoteArray(Arg))
      Fn = "::poc::destroy_array(";
  } else if (const auto *RD = T->getPointeeType()->getAsCXXRecordDecl()) {
    if (Model->isRemotable(RD))
      Fn = "::poc::destroy(";
  }
  if (!Fn || !rewritable(E))
    return true;
  replace(SM->getExpansionLoc(E->getBeginLoc()), SM->getExpansionLoc(Arg->getBeginLoc()), Fn);
  R.InsertTextAfterToken(SM->getExpansionLoc(Arg->getEndLoc()), ")");
  return true;
}

bool RewriteVisitor::VisitArraySubscriptExpr(ArraySubscriptExpr *E) {
  if (!inUserFile(E->getBeginLoc()))
    return true;
  const Expr *Base = E->getBase();
  if (Base != E->getLHS() || !isScalarPointer(Base->getType()) || !Model->mayBeRemoteArray(Base))
    return true;
  rewriteElement(E, Base, E->getIdx());
  return true;
}

bool RewriteVisitor::VisitUnaryOperator(UnaryOperator *E) {
  if (E->getOpcode() != UO_Deref || !inUserFile(E->getBeginLoc()))
    return true;
  const Expr *Sub = E->getSubExpr();
  if (!isScalarPointer(Sub->getType()) || !Model->mayBeRemoteArray(Sub))
    return true;
  rewriteElement(E, Sub, nullptr);
  return true;
}

ElementUse RewriteVisitor::elementUse(const Expr *E, size_t At) const {
  // The innermost enclosing node that is neither parentheses nor a
  // conversion to const (which keeps the lvalue for a const reference):
  // another implicit conversion (lvalue-to-rvalue) means the value is used;
  // so does anything else that does not bind the lvalue.
  const Stmt *Parent = nullptr;
  const Expr *Operand = E;
  while (At-- > 0) {
    Parent = Parents[At];
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
  if (isa<ReturnStmt>(Parent) && CurrentFunction && bindsMutable(CurrentFunction->getReturnType()))
    return ElementUse::Reference;
  return ElementUse::Read;
}

void RewriteVisitor::rewriteElement(const Expr *E, const Expr *Base, const Expr *Idx) {
  ElementUse Use = elementUse(E, Parents.size() - 1);
  if (Use == ElementUse::Address)
    return; // &data[i] computes an address, it reads nothing
  if (Use == ElementUse::Reference) {
    Diags.report(E->getBeginLoc(), Diag::RemoteElementReference);
    return;
  }
  if (!rewritable(E))
    return;
  llvm::StringRef Fn = Use == ElementUse::Write ? "::poc::element(" : "::poc::element_value(";
  SourceLocation BaseBegin = SM->getExpansionLoc(Base->getBeginLoc());
  SourceLocation BaseEnd = afterToken(SM->getExpansionLoc(Base->getEndLoc()));
  if (!Idx) {
    // *p -> fn(p, 0)
    replace(SM->getExpansionLoc(E->getBeginLoc()), BaseBegin, Fn);
    R.InsertTextAfterToken(SM->getExpansionLoc(Base->getEndLoc()), ", 0)");
    return;
  }
  // p[i] -> fn(p, i)
  R.InsertTextBefore(BaseBegin, Fn);
  replace(BaseEnd, SM->getExpansionLoc(Idx->getBeginLoc()), ", ");
  replace(afterToken(SM->getExpansionLoc(Idx->getEndLoc())),
          afterToken(SM->getExpansionLoc(cast<ArraySubscriptExpr>(E)->getRBracketLoc())), ")");
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
  R.ReplaceText(FD->getLocation(), 4, "poc_user_main");
  if (!FD->doesThisDeclarationHaveABody())
    return true;
  Layout.noteMain(FD);
  // Only `main` may fall off its end; poc_user_main must return.
  const auto *Body = dyn_cast<CompoundStmt>(FD->getBody());
  if (Body && (Body->body_empty() || !isa<ReturnStmt>(Body->body_back())))
    R.InsertTextBefore(Body->getRBracLoc(), "return 0; ");
  return true;
}

bool RewriteVisitor::VisitDeclRefExpr(DeclRefExpr *E) {
  // A program may name `main` (Clang accepts it as an extension), e.g. as a
  // function pointer; it now means the renamed user main.
  const auto *FD = dyn_cast<FunctionDecl>(E->getDecl());
  if (FD && FD->isMain() && SM->isWrittenInMainFile(E->getLocation()) &&
      !E->getLocation().isMacroID())
    R.ReplaceText(E->getLocation(), 4, "poc_user_main");
  return true;
}

} // namespace pocc
