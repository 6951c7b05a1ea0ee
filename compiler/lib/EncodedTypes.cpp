//===- EncodedTypes.cpp - types the program encodes itself ----------------===//
#include "pocc/EncodedTypes.h"

#include "clang/AST/DeclTemplate.h"
#include "clang/Sema/Scope.h"
#include "clang/Sema/Sema.h"

#include <optional>

using namespace clang;

namespace pocc {

namespace {

/// True if \p T is, or has as a template argument at any depth, a class
/// declared in the user's files.
bool mentionsUserClass(QualType T, const std::function<bool(SourceLocation)> &InUserFile) {
  T = T.getNonReferenceType().getCanonicalType();
  while (T->isPointerType() || T->isArrayType())
    T = T->isPointerType() ? T->getPointeeType() : QualType(T->getArrayElementTypeNoTypeQual(), 0);
  const auto *RD = T->getAsCXXRecordDecl();
  if (!RD)
    return false;
  if (InUserFile(RD->getLocation()))
    return true;
  if (const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(RD))
    for (const TemplateArgument &A : Spec->getTemplateArgs().asArray())
      if (A.getKind() == TemplateArgument::Type && mentionsUserClass(A.getAsType(), InUserFile))
        return true;
  return false;
}

/// The member function templates named \p Method of poc::\p Class.
std::vector<const FunctionTemplateDecl *> templatesOf(ASTContext &C, StringRef Class,
                                                      StringRef Method) {
  std::vector<const FunctionTemplateDecl *> Found;
  for (const Decl *D : C.getTranslationUnitDecl()->decls()) {
    const auto *NS = dyn_cast<NamespaceDecl>(D);
    if (!NS || NS->getName() != "poc")
      continue;
    for (const Decl *Inner : NS->decls()) {
      const auto *RD = dyn_cast<CXXRecordDecl>(Inner);
      if (!RD || RD->getName() != Class || !RD->isThisDeclarationADefinition())
        continue;
      for (const Decl *M : RD->decls())
        if (const auto *FT = dyn_cast<FunctionTemplateDecl>(M))
          if (FT->getName() == Method)
            Found.push_back(FT);
    }
  }
  return Found;
}

/// Instantiates the function templates of the user's files that the file
/// uses. poc++ parses a "prefix" unit, which leaves every end-of-file
/// instantiation to the system compiler (docs/compiler.md section 9);
/// encoding a user class inside the user's own templates (apps/dataflow's
/// operands) is only seen in their instantiations. Library templates stay
/// uninstantiated.
///
/// This runs from the consumer's HandleTranslationUnit, after
/// Sema::ActOnEndOfTranslationUnit, which for a prefix unit sets
/// Sema::TUScope to null (Clang itself instantiates at the end of a whole
/// unit before it does so). An instantiation may need that scope: looking
/// up a builtin declares it lazily in the translation-unit scope
/// (LazilyCreateBuiltin -> PushOnScopeChains), as the implicit copy of an
/// array member does with __builtin_memcpy. So Sema gets its scope back for
/// the duration: the parser's translation-unit scope, which lives until
/// ParseAST returns (Sema::CurScope), or a fresh one.
void instantiateUserTemplates(Sema &S, const std::function<bool(SourceLocation)> &InUserFile) {
  TranslationUnitDecl *TU = S.getASTContext().getTranslationUnitDecl();
  Scope *Parsers = S.getCurScope();
  std::optional<Scope> Fresh;
  Scope *Saved = S.TUScope;
  if (!S.TUScope) {
    if (Parsers && !Parsers->getParent() && Parsers->getEntity() == TU) {
      S.TUScope = Parsers;
    } else {
      Fresh.emplace(nullptr, Scope::DeclScope, S.getDiagnostics());
      Fresh->setEntity(TU);
      S.TUScope = &*Fresh;
    }
  }
  struct Restore {
    Sema &S;
    Scope *Saved;
    ~Restore() { S.TUScope = Saved; }
  } RestoreScope{S, Saved};
  for (;;) {
    std::vector<std::pair<ValueDecl *, SourceLocation>> Mine;
    auto &Pending = S.PendingInstantiations;
    for (auto It = Pending.begin(); It != Pending.end();) {
      auto *FD = dyn_cast<FunctionDecl>(It->first);
      const FunctionDecl *Pattern = FD ? FD->getTemplateInstantiationPattern() : nullptr;
      if (Pattern && InUserFile(Pattern->getLocation()) && !FD->isDefined()) {
        Mine.push_back(*It);
        It = Pending.erase(It);
      } else {
        ++It;
      }
    }
    if (Mine.empty())
      return;
    for (auto &[D, PointOfInstantiation] : Mine)
      S.InstantiateFunctionDefinition(PointOfInstantiation, cast<FunctionDecl>(D),
                                      /*Recursive=*/false, /*DefinitionRequired=*/false,
                                      /*AtEndOfTU=*/true);
  }
}

} // namespace

void collectEncodedTypes(ASTContext &C, Sema &S, Serializability &Sendable, Diagnostics &Diags,
                         const std::function<bool(SourceLocation)> &InUserFile) {
  instantiateUserTemplates(S, InUserFile);
  std::vector<const FunctionTemplateDecl *> Templates = templatesOf(C, "Writer", "write");
  for (const FunctionTemplateDecl *FT : templatesOf(C, "Reader", "read"))
    Templates.push_back(FT);
  for (const FunctionTemplateDecl *FT : Templates)
    for (const FunctionDecl *Spec : FT->specializations()) {
      const TemplateArgumentList *Args = Spec->getTemplateSpecializationArgs();
      if (!Args || Args->size() == 0 || Args->get(0).getKind() != TemplateArgument::Type)
        continue;
      QualType T = Args->get(0).getAsType();
      if (!mentionsUserClass(T, InUserFile))
        continue;
      if (auto U = Sendable.checkResult(T.getNonReferenceType().getUnqualifiedType())) {
        Diags.report(Spec->getPointOfInstantiation(), Diag::UnencodableType) << T << U->Reason;
        if (U->Culprit)
          Diags.report(U->Culprit->getLocation(), Diag::DeclaredHere) << U->Culprit->getName();
      }
    }
}

} // namespace pocc
