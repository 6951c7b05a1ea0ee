//===- RemoteModel.cpp - which values may refer to other processes --------===//
#include "pocc/RemoteModel.h"
#include "pocc/Persistence.h"
#include "pocc/TypeNames.h"

#include "clang/AST/Attr.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/Support/SaveAndRestore.h"

#include <algorithm>

using namespace clang;

namespace pocc {

namespace {
/// True for the types a machine is given as: poc::machine, poc::persistent_at,
/// strings and `const char*`.
bool isMachineType(QualType P) {
  P = P.getNonReferenceType().getUnqualifiedType().getCanonicalType();
  if (const auto *RD = P->getAsCXXRecordDecl())
    return RD->getQualifiedNameAsString() == "poc::machine" ||
           RD->getQualifiedNameAsString() == "poc::persistent_at" ||
           RD->getQualifiedNameAsString() == "std::basic_string" ||
           RD->getQualifiedNameAsString() == "std::basic_string_view";
  // `const char*` placement is never a real placement new (that takes void*).
  if (const auto *PT = P->getAs<PointerType>())
    return PT->getPointeeType().isConstQualified() && PT->getPointeeType()->isCharType();
  return false;
}
} // namespace

bool isRemoteNew(const CXXNewExpr *E) {
  if (E->getNumPlacementArgs() != 1 || !E->getOperatorNew())
    return false;
  const FunctionDecl *New = E->getOperatorNew();
  return New->getNumParams() == 2 && isMachineType(New->getParamDecl(1)->getType());
}

bool isDependentRemoteNew(const CXXNewExpr *E) {
  if (E->getNumPlacementArgs() != 1 || E->isArray() ||
      !E->getAllocatedType()->getAs<TemplateTypeParmType>())
    return false;
  const Expr *Where = E->getPlacementArg(0)->IgnoreParenImpCasts();
  QualType T = Where->getType();
  // A string literal is an array of const char; other arguments are named.
  if (const auto *AT = T->getAsArrayTypeUnsafe())
    return AT->getElementType().isConstQualified() && AT->getElementType()->isCharType();
  return !T->isDependentType() && isMachineType(T);
}

std::vector<const CXXRecordDecl *> dependentCreationClasses(const CXXNewExpr *E, ASTContext &Ctx) {
  std::vector<const CXXRecordDecl *> Out;
  const auto *Parm = E->getAllocatedType()->getAs<TemplateTypeParmType>();
  auto take = [&](const TemplateArgumentList &Args) {
    if (Parm->getIndex() >= Args.size())
      return;
    const TemplateArgument &A = Args.get(Parm->getIndex());
    if (A.getKind() != TemplateArgument::Type)
      return;
    if (const CXXRecordDecl *RD = A.getAsType()->getAsCXXRecordDecl())
      if (std::find(Out.begin(), Out.end(), RD) == Out.end())
        Out.push_back(RD);
  };
  // The function that holds the expression, then the class around it.
  DynTypedNodeList Parents = Ctx.getParents(*E);
  while (!Parents.empty()) {
    if (const auto *FD = Parents[0].get<FunctionDecl>()) {
      if (const FunctionTemplateDecl *FT = FD->getDescribedFunctionTemplate();
          FT && FT->getTemplateParameters()->getDepth() == Parm->getDepth()) {
        for (const FunctionDecl *S : FT->specializations())
          if (const TemplateArgumentList *Args = S->getTemplateSpecializationArgs())
            take(*Args);
        return Out;
      }
      const auto *RD = dyn_cast<CXXRecordDecl>(FD->getDeclContext());
      const ClassTemplateDecl *CT = RD ? RD->getDescribedClassTemplate() : nullptr;
      if (CT && CT->getTemplateParameters()->getDepth() == Parm->getDepth())
        for (const ClassTemplateSpecializationDecl *S : CT->specializations())
          take(S->getTemplateArgs());
      return Out;
    }
    Parents = Ctx.getParents(Parents[0]);
  }
  return Out;
}

bool isProcessGroupMember(const CXXRecordDecl *RD) {
  if (!RD || !RD->hasDefinition())
    return false;
  RD = RD->getDefinition();
  if (RD->getQualifiedNameAsString() == "poc::ProcessGroupMember")
    return true;
  for (const CXXBaseSpecifier &B : RD->bases())
    if (isProcessGroupMember(B.getType()->getAsCXXRecordDecl()))
      return true;
  return false;
}

bool isScalarPointer(QualType T) {
  const auto *PT = T->getAs<PointerType>();
  if (!PT)
    return false;
  QualType E = PT->getPointeeType();
  return !E->isRecordType() && !E->isFunctionType() && !E->isVoidType();
}

namespace {
bool hasAnnotation(const Decl *D, StringRef Text) {
  for (const auto *A : D->specific_attrs<AnnotateAttr>())
    if (A->getAnnotation() == Text)
      return true;
  return false;
}
} // namespace

bool isNonblocking(const FunctionDecl *FD) {
  for (const FunctionDecl *R : FD->redecls())
    if (hasAnnotation(R, "poc::nonblocking"))
      return true;
  return false;
}

namespace {

void addWithBases(const CXXRecordDecl *RD, std::set<std::string> &Out) {
  if (!RD || !RD->hasDefinition())
    return;
  RD = RD->getDefinition();
  Out.insert(className(RD));
  for (const CXXBaseSpecifier &B : RD->bases())
    addWithBases(B.getType()->getAsCXXRecordDecl(), Out);
}

/// Finds remote creations of classes.
class CreationFinder : public RecursiveASTVisitor<CreationFinder> {
public:
  explicit CreationFinder(ASTContext &Ctx) : Ctx(Ctx), SM(Ctx.getSourceManager()) {}
  std::set<std::string> Names;
  ASTContext &Ctx;
  const SourceManager &SM;
  bool shouldVisitTemplateInstantiations() const { return true; }
  bool TraverseDecl(Decl *D) {
    if (D && !isa<TranslationUnitDecl>(D) && SM.isInSystemHeader(D->getLocation()))
      return true;
    return RecursiveASTVisitor::TraverseDecl(D);
  }
  bool VisitCXXNewExpr(CXXNewExpr *E) {
    if (isRemoteNew(E) && !E->isArray())
      addWithBases(E->getAllocatedType()->getAsCXXRecordDecl(), Names);
    if (isDependentRemoteNew(E))
      for (const CXXRecordDecl *RD : dependentCreationClasses(E, Ctx))
        addWithBases(RD, Names);
    return true;
  }
  bool VisitCallExpr(CallExpr *E) {
    addWithBases(persistentClass(E), Names);
    return true;
  }
};
} // namespace

namespace {
/// Finds the remotable classes the file defines (or instantiates).
class RemotableCollector : public RecursiveASTVisitor<RemotableCollector> {
public:
  RemotableCollector(const RemoteModel &M, const SourceManager &SM) : M(M), SM(SM) {}
  bool shouldVisitTemplateInstantiations() const { return true; }
  bool TraverseDecl(Decl *D) {
    // Library classes are never served by generated code.
    if (D && !isa<TranslationUnitDecl>(D) && SM.isInSystemHeader(D->getLocation()))
      return true;
    return RecursiveASTVisitor::TraverseDecl(D);
  }
  bool VisitCXXRecordDecl(CXXRecordDecl *RD) {
    if (RD->isThisDeclarationADefinition() && !RD->isDependentContext() && !RD->isLambda() &&
        !SM.isInSystemHeader(RD->getLocation()) && M.isRemotable(RD) &&
        (!isa<ClassTemplateSpecializationDecl>(RD) ||
         cast<ClassTemplateSpecializationDecl>(RD)->getTemplateSpecializationKind() !=
             TSK_Undeclared))
      Found.push_back(RD);
    return true;
  }
  std::vector<const CXXRecordDecl *> Found;

private:
  const RemoteModel &M;
  const SourceManager &SM;
};

} // namespace

std::vector<const CXXRecordDecl *> definedRemotableClasses(const RemoteModel &Model,
                                                           const SourceManager &SM,
                                                           ArrayRef<Decl *> TopLevel) {
  RemotableCollector Collector(Model, SM);
  for (Decl *D : TopLevel)
    Collector.TraverseDecl(D);
  return Collector.Found;
}

std::set<std::string> collectRemotableNames(ASTContext &Ctx, ArrayRef<Decl *> TopLevel) {
  CreationFinder F(Ctx);
  for (Decl *D : TopLevel)
    F.TraverseDecl(D);
  return F.Names;
}

const Decl *canonicalDecl(const Decl *D) {
  // A parameter of an out-of-line definition stands for the parameter of
  // the first declaration, which is what call sites bind to.
  if (const auto *P = dyn_cast<ParmVarDecl>(D))
    if (const auto *F = dyn_cast_or_null<FunctionDecl>(P->getDeclContext())) {
      const FunctionDecl *First = F->getCanonicalDecl();
      unsigned I = P->getFunctionScopeIndex();
      if (I < First->getNumParams())
        return First->getParamDecl(I);
    }
  return D->getCanonicalDecl();
}

void pointerSources(const Expr *E, SmallVectorImpl<const Decl *> &Out, bool &FromRemoteNew) {
  if (!E)
    return;
  E = E->IgnoreParenImpCasts();
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    Out.push_back(canonicalDecl(DRE->getDecl()));
  } else if (const auto *ME = dyn_cast<MemberExpr>(E)) {
    Out.push_back(canonicalDecl(ME->getMemberDecl()));
  } else if (const auto *NE = dyn_cast<CXXNewExpr>(E)) {
    if (isRemoteNew(NE) && NE->isArray())
      FromRemoteNew = true;
  } else if (const auto *CE = dyn_cast<CallExpr>(E)) {
    if (const Decl *Callee = CE->getCalleeDecl())
      Out.push_back(canonicalDecl(Callee));
  } else if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    if (BO->isAdditiveOp() || BO->isAssignmentOp() || BO->getOpcode() == BO_Comma) {
      const Expr *Ptr = BO->getLHS()->getType()->isPointerType() && BO->getOpcode() != BO_Comma
                            ? BO->getLHS()
                            : BO->getRHS();
      pointerSources(Ptr, Out, FromRemoteNew);
    }
  } else if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
    // p++ and &p[i] point into the same array as p.
    if (UO->isIncrementDecrementOp() || UO->getOpcode() == UO_AddrOf)
      pointerSources(UO->getSubExpr(), Out, FromRemoteNew);
  } else if (const auto *CO = dyn_cast<AbstractConditionalOperator>(E)) {
    pointerSources(CO->getTrueExpr(), Out, FromRemoteNew);
    pointerSources(CO->getFalseExpr(), Out, FromRemoteNew);
  } else if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E)) {
    // An element of an array of pointers stands for the whole array.
    pointerSources(AS->getBase(), Out, FromRemoteNew);
  } else if (const auto *CE = dyn_cast<ExplicitCastExpr>(E)) {
    pointerSources(CE->getSubExpr(), Out, FromRemoteNew);
  }
}

/// Collects remotable classes and the scalar pointer flow graph.
class FlowCollector : public RecursiveASTVisitor<FlowCollector> {
public:
  explicit FlowCollector(RemoteModel &M) : M(M) {}
  bool shouldVisitTemplateInstantiations() const { return true; }
  bool shouldVisitImplicitCode() const { return false; }
  bool TraverseDecl(Decl *D) {
    // Library code neither creates processes nor receives remote arrays.
    if (D && !isa<TranslationUnitDecl>(D) &&
        M.Ctx.getSourceManager().isInSystemHeader(D->getLocation()))
      return true;
    return RecursiveASTVisitor::TraverseDecl(D);
  }

  bool VisitCXXNewExpr(CXXNewExpr *E) {
    if (isRemoteNew(E) && !E->isArray())
      M.addRemotable(E->getAllocatedType()->getAsCXXRecordDecl());
    if (isDependentRemoteNew(E))
      for (const CXXRecordDecl *RD : dependentCreationClasses(E, M.Ctx))
        M.addRemotable(RD);
    return true;
  }
  bool VisitCXXRecordDecl(CXXRecordDecl *RD) {
    if (RD->isThisDeclarationADefinition() &&
        (hasAnnotation(RD, "poc::remote") || isProcessGroupMember(RD)))
      M.addRemotable(RD);
    return true;
  }
  bool VisitVarDecl(VarDecl *VD) {
    if (VD->getInit())
      flow(VD->getInit(), VD);
    return true;
  }
  bool VisitBinaryOperator(BinaryOperator *BO) {
    if (BO->getOpcode() == BO_Assign && BO->getType()->isPointerType())
      flowInto(BO->getLHS(), BO->getRHS());
    return true;
  }
  bool VisitCallExpr(CallExpr *CE) {
    // A persistent process is served by the program that reaches it.
    if (const CXXRecordDecl *RD = persistentClass(CE))
      M.addRemotable(RD);
    const auto *FD = dyn_cast_or_null<FunctionDecl>(CE->getCalleeDecl());
    if (!FD)
      return true;
    unsigned Shift = isa<CXXOperatorCallExpr>(CE) && isa<CXXMethodDecl>(FD);
    for (unsigned I = Shift; I < CE->getNumArgs(); ++I)
      if (I - Shift < FD->getNumParams())
        flow(CE->getArg(I), FD->getParamDecl(I - Shift));
    return true;
  }
  bool VisitCXXConstructExpr(CXXConstructExpr *CE) {
    const CXXConstructorDecl *CD = CE->getConstructor();
    for (unsigned I = 0; I < CE->getNumArgs() && I < CD->getNumParams(); ++I)
      flow(CE->getArg(I), CD->getParamDecl(I));
    return true;
  }
  bool VisitCXXConstructorDecl(CXXConstructorDecl *CD) {
    for (const CXXCtorInitializer *Init : CD->inits())
      if (FieldDecl *FD = Init->getMember())
        flow(Init->getInit(), FD);
    return true;
  }
  bool TraverseFunctionDecl(FunctionDecl *FD) {
    llvm::SaveAndRestore<const FunctionDecl *> InFunction(CurrentFunction, FD);
    return RecursiveASTVisitor::TraverseFunctionDecl(FD);
  }
  bool TraverseCXXMethodDecl(CXXMethodDecl *FD) {
    llvm::SaveAndRestore<const FunctionDecl *> InFunction(CurrentFunction, FD);
    return RecursiveASTVisitor::TraverseCXXMethodDecl(FD);
  }
  bool VisitReturnStmt(ReturnStmt *RS) {
    if (CurrentFunction && RS->getRetValue())
      flow(RS->getRetValue(), CurrentFunction);
    return true;
  }

private:
  void flow(const Expr *From, const Decl *To) {
    if (!From || From->getType().isNull() || From->isTypeDependent() ||
        !From->getType()->isPointerType())
      return;
    To = canonicalDecl(To);
    SmallVector<const Decl *, 2> Srcs;
    bool FromNew = false;
    pointerSources(From, Srcs, FromNew);
    if (FromNew)
      M.Seeds.insert(To);
    for (const Decl *S : Srcs)
      M.Flow[S].push_back(To);
  }
  void flowInto(const Expr *LHS, const Expr *RHS) {
    SmallVector<const Decl *, 2> Dsts;
    bool Ignored = false;
    pointerSources(LHS, Dsts, Ignored);
    for (const Decl *D : Dsts)
      flow(RHS, D);
  }

  RemoteModel &M;
  const FunctionDecl *CurrentFunction = nullptr;
};

RemoteModel::RemoteModel(ASTContext &Ctx, const std::set<std::string> &ProgramRemotable,
                         ArrayRef<Decl *> TopLevel)
    : Ctx(Ctx), RemotableNames(ProgramRemotable) {
  collect(TopLevel);
  propagate(TopLevel);
}

void RemoteModel::addRemotable(const CXXRecordDecl *RD) { addWithBases(RD, RemotableNames); }

bool RemoteModel::isRemotable(const CXXRecordDecl *RD) const {
  if (!RD || !RD->hasDefinition())
    return false;
  RD = RD->getDefinition();
  return RemotableNames.count(className(RD)) || isProcessGroupMember(RD) ||
         hasAnnotation(RD, "poc::remote");
}

void RemoteModel::collect(ArrayRef<Decl *> TopLevel) {
  FlowCollector C(*this);
  for (Decl *D : TopLevel)
    C.TraverseDecl(D);
}

void RemoteModel::propagate(ArrayRef<Decl *> TopLevel) {
  // Pointer-to-scalar parameters and fields of remotable classes arrive
  // over the wire, so they may hold remote arrays.
  struct ClassSeeds : RecursiveASTVisitor<ClassSeeds> {
    RemoteModel &M;
    explicit ClassSeeds(RemoteModel &M) : M(M) {}
    bool shouldVisitTemplateInstantiations() const { return true; }
    bool TraverseDecl(Decl *D) {
      if (D && !isa<TranslationUnitDecl>(D) &&
          M.Ctx.getSourceManager().isInSystemHeader(D->getLocation()))
        return true;
      return RecursiveASTVisitor::TraverseDecl(D);
    }
    bool VisitCXXRecordDecl(CXXRecordDecl *RD) {
      if (!RD->isThisDeclarationADefinition() || !M.isRemotable(RD))
        return true;
      for (const FieldDecl *F : RD->fields())
        if (isScalarPointer(F->getType()))
          M.Seeds.insert(canonicalDecl(F));
      for (const CXXMethodDecl *MD : RD->methods())
        for (const ParmVarDecl *P : MD->parameters())
          if (isScalarPointer(P->getType()))
            M.Seeds.insert(canonicalDecl(P));
      return true;
    }
  } CS(*this);
  for (Decl *D : TopLevel)
    CS.TraverseDecl(D);

  std::vector<const Decl *> Work(Seeds.begin(), Seeds.end());
  while (!Work.empty()) {
    const Decl *D = Work.back();
    Work.pop_back();
    if (!MayRemote.insert(D).second)
      continue;
    auto It = Flow.find(D);
    if (It != Flow.end())
      for (const Decl *Next : It->second)
        Work.push_back(Next);
  }
}

bool RemoteModel::mayBeRemoteArray(const Expr *E) const {
  SmallVector<const Decl *, 2> Srcs;
  bool FromNew = false;
  pointerSources(E, Srcs, FromNew);
  if (FromNew)
    return true;
  for (const Decl *D : Srcs)
    if (MayRemote.count(D))
      return true;
  return false;
}

} // namespace pocc
