//===- CreationRewriter.cpp - Creation and deletion of processes ----------===//
#include "pocc/CreationRewriter.h"

#include "pocc/Persistence.h"
#include "pocc/TypeNames.h"

using namespace clang;

namespace pocc {

bool CreationRewriter::VisitBinaryOperator(BinaryOperator *E) {
  // `start p = new(m) T(...)`: the creation is what is started.
  if (E->getOpcode() != BO_Assign)
    return true;
  const auto *New = dyn_cast<CXXNewExpr>(E->getRHS()->IgnoreParenImpCasts());
  if (New && (isRemoteNew(New) || isDependentRemoteNew(New)) && Starts.takeStart(E->getBeginLoc()))
    StartedNews.insert(New);
  return true;
}

bool CreationRewriter::VisitDeclStmt(DeclStmt *S) {
  // `start T* p = new(m) T(...)`.
  if (!S->isSingleDecl())
    return true;
  const auto *VD = dyn_cast<VarDecl>(S->getSingleDecl());
  const auto *New =
      VD && VD->getInit() ? dyn_cast<CXXNewExpr>(VD->getInit()->IgnoreParenImpCasts()) : nullptr;
  if (New && (isRemoteNew(New) || isDependentRemoteNew(New)) && Starts.takeStart(S->getBeginLoc()))
    StartedNews.insert(New);
  return true;
}

void CreationRewriter::rewriteDependentNew(const CXXNewExpr *E, bool Started) {
  if (E->getInitializationStyle() == CXXNewInitializationStyle::Braces) {
    Ctx.Diags.report(E->getBeginLoc(), Diag::Unsupported)
        << "creating a process of a template parameter type with braces; write "
           "'new (m) T(args)'";
    return;
  }
  std::string Type =
      Lexer::getSourceText(CharSourceRange::getTokenRange(
                               E->getAllocatedTypeSourceInfo()->getTypeLoc().getSourceRange()),
                           *Ctx.SM, Ctx.LangOpts)
          .str();
  const Expr *Where = E->getPlacementArg(0);
  SourceLocation Begin = Ctx.SM->getExpansionLoc(E->getBeginLoc());
  SourceLocation WhereBegin = Ctx.SM->getExpansionLoc(Where->getBeginLoc());
  SourceLocation WhereEnd = Ctx.afterToken(Ctx.SM->getExpansionLoc(Where->getEndLoc()));
  Ctx.replace(Begin, WhereBegin, Ctx.dependent().useCreation(Started) + "<" + Type + ">(");
  SourceRange Parens = E->getDirectInitRange();
  if (Parens.isInvalid()) { // `new (m) T`: the default constructor
    Ctx.replace(WhereEnd, Ctx.afterToken(Ctx.SM->getExpansionLoc(E->getEndLoc())), ")");
    return;
  }
  unsigned Args = 0;
  if (const auto *List = dyn_cast_or_null<ParenListExpr>(E->getInitializer()))
    Args = List->getNumExprs();
  else if (E->getInitializer())
    Args = 1;
  // `) T(` becomes `, ` (or nothing); the arguments and `)` stay.
  Ctx.replace(WhereEnd, Ctx.afterToken(Ctx.SM->getExpansionLoc(Parens.getBegin())),
              Args ? ", " : "");
}

bool CreationRewriter::VisitCXXNewExpr(CXXNewExpr *E) {
  if (isDependentRemoteNew(E) && Ctx.rewritable(E)) {
    rewriteDependentNew(E, StartedNews.count(E) || Starts.takeStart(E->getBeginLoc()));
    return true;
  }
  if (!isRemoteNew(E) || !Ctx.rewritable(E))
    return true;
  bool Started = StartedNews.count(E) || Starts.takeStart(E->getBeginLoc());
  if (!Started)
    Ctx.checkNoWait(E->getBeginLoc(), "creating a process without 'start'");
  const Expr *Where = E->getPlacementArg(0);
  SourceLocation Begin = Ctx.SM->getExpansionLoc(E->getBeginLoc());
  SourceLocation WhereBegin = Ctx.SM->getExpansionLoc(Where->getBeginLoc());
  SourceLocation WhereEnd = Ctx.afterToken(Ctx.SM->getExpansionLoc(Where->getEndLoc()));
  SourceLocation End = Ctx.afterToken(Ctx.SM->getExpansionLoc(E->getEndLoc()));
  if (E->isArray()) {
    QualType Elem = E->getAllocatedType();
    if (!Elem.isTriviallyCopyableType(*Ctx.AST) || Elem->isPointerType()) {
      Ctx.Diags.report(E->getBeginLoc(), Diag::RemoteArrayElement) << Elem;
      return true;
    }
    const Expr *Size = *E->getArraySize();
    Ctx.replace(Begin, WhereBegin, "::poc::create_array<" + codeSpelling(Elem, *Ctx.AST) + ">(");
    Ctx.replace(WhereEnd, Ctx.SM->getExpansionLoc(Size->getBeginLoc()), ", ");
    Ctx.replace(Ctx.afterToken(Ctx.SM->getExpansionLoc(Size->getEndLoc())), End, ")");
    return true;
  }
  QualType Allocated = E->getAllocatedType();
  if (!Allocated->isRecordType()) {
    Ctx.Diags.report(E->getBeginLoc(), Diag::ProcessOfNonClass)
        << Allocated << codeSpelling(Allocated, *Ctx.AST);
    return true;
  }
  const CXXConstructExpr *CE = E->getConstructExpr();
  if (!CE) {
    Ctx.Diags.report(E->getBeginLoc(), Diag::Unsupported)
        << "creating a process of a class without a constructor call "
           "(aggregate initialisation); declare a constructor";
    return true;
  }
  const RemoteClass &C = Ctx.Gen->classFor(E->getAllocatedType()->getAsCXXRecordDecl());
  if (!C.Concrete) {
    // Abstract classes are Clang's error already; this is the system header.
    Ctx.Diags.report(E->getBeginLoc(), Diag::Unsupported)
        << "creating a process of '" + C.Decl->getQualifiedNameAsString() +
               "', which is declared in a system header (a header found through "
               "-isystem or a system directory); include its folder with -I";
    return true;
  }
  if (C.Decl->isLocalClass()) {
    // Its interface and server are generated at namespace scope.
    Ctx.Diags.report(E->getBeginLoc(), Diag::Unsupported)
        << "creating a process of '" + C.Decl->getNameAsString() +
               "', a class defined inside a function; define it at namespace scope";
    return true;
  }
  const RemoteMethod *M = Ctx.Gen->methodFor(CE->getConstructor());
  if (!M) {
    Ctx.Diags.report(E->getBeginLoc(), Diag::Unsupported)
        << "creating a process with a copy, move or non-public constructor";
    return true;
  }
  if (!Ctx.checkProblem(*M, nullptr, CE, E->getBeginLoc()))
    return true;
  llvm::SmallVector<const Expr *, 4> Args(CE->arg_begin(), CE->arg_end());
  Ctx.checkArrayArgs(*M, Args);
  bool Persistent = isPersistentNew(E);
  if (Persistent && Started) {
    Ctx.Diags.report(E->getBeginLoc(), Diag::Unsupported)
        << "'start' before a persistent creation (its state is saved before "
           "it returns); create it, then start calls on it";
    return true;
  }
  if (Persistent)
    Persistence.checkPersistable(C.Decl, E->getBeginLoc());
  std::string Kind = Persistent ? "make_persistent" : Started ? "start_create" : "create";
  Ctx.Gen->use(C, *M, Kind);
  Ctx.noteUse(C);
  Ctx.replace(Begin, WhereBegin,
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
    Ctx.replace(WhereEnd, Ctx.SM->getExpansionLoc(First->getBeginLoc()), ", ");
    Ctx.replace(Ctx.afterToken(Ctx.SM->getExpansionLoc(Last->getEndLoc())), End, ")");
  } else {
    Ctx.replace(WhereEnd, End, ")");
  }
  return true;
}

bool CreationRewriter::VisitCXXDeleteExpr(CXXDeleteExpr *E) {
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
    if (isScalarPointer(T) && Ctx.Model->mayBeRemoteArray(Arg))
      Fn = "::poc::destroy_array(";
  } else if (const auto *RD = T->getPointeeType()->getAsCXXRecordDecl()) {
    if (Ctx.Model->isRemotable(RD))
      Fn = "::poc::destroy(";
  }
  if (!Fn || !Ctx.rewritable(E))
    return true;
  Ctx.checkNoWait(E->getBeginLoc(), "deleting an object that may be a process");
  Ctx.replace(Ctx.SM->getExpansionLoc(E->getBeginLoc()),
              Ctx.SM->getExpansionLoc(Arg->getBeginLoc()), Fn);
  Ctx.R.InsertTextAfterToken(Ctx.SM->getExpansionLoc(Arg->getEndLoc()), ")");
  return true;
}

} // namespace pocc
