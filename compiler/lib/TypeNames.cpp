//===- TypeNames.cpp - spelling types and names for generated code --------===//
#include "pocc/TypeNames.h"

#include "clang/AST/DeclTemplate.h"
#include "clang/AST/QualTypeNames.h"

using namespace clang;

namespace pocc {

namespace {
PrintingPolicy signaturePolicy(const ASTContext &Ctx) {
  PrintingPolicy P(Ctx.getLangOpts());
  P.SuppressTagKeyword = true;
  P.FullyQualifiedName = true;
  P.PrintCanonicalTypes = true;
  P.SuppressUnwrittenScope = true;
  P.SuppressInlineNamespace = true;
  return P;
}
} // namespace

std::string codeSpelling(QualType T, const ASTContext &Ctx) {
  PrintingPolicy P(Ctx.getLangOpts());
  P.SuppressTagKeyword = true;
  P.SuppressUnwrittenScope = true;
  return TypeName::getFullyQualifiedName(T, Ctx, P,
                                         /*WithGlobalNsPrefix=*/true);
}

std::string signatureSpelling(QualType T, const ASTContext &Ctx) {
  return T.getCanonicalType().getAsString(signaturePolicy(Ctx));
}

std::string className(const CXXRecordDecl *RD) {
  const ASTContext &Ctx = RD->getASTContext();
  return signatureSpelling(Ctx.getRecordType(RD), Ctx);
}

std::string classIdentifier(const CXXRecordDecl *RD) { return identifierFrom(className(RD)); }

std::string identifierFrom(llvm::StringRef Text) {
  std::string Id;
  bool LastUnderscore = false;
  for (char C : Text) {
    if (isalnum(static_cast<unsigned char>(C))) {
      Id += C;
      LastUnderscore = false;
    } else if (!LastUnderscore && !Id.empty()) {
      Id += '_';
      LastUnderscore = true;
    }
  }
  while (!Id.empty() && Id.back() == '_')
    Id.pop_back();
  return Id;
}

std::string methodSignature(const CXXMethodDecl *MD) {
  const ASTContext &Ctx = MD->getASTContext();
  std::string S = className(MD->getParent()) + "::";
  if (isa<CXXConstructorDecl>(MD))
    S += MD->getParent()->getNameAsString();
  else
    S += MD->getNameAsString();
  if (const TemplateArgumentList *Args = MD->getTemplateSpecializationArgs()) {
    S += '<';
    for (unsigned I = 0; I < Args->size(); ++I) {
      if (I)
        S += ", ";
      const TemplateArgument &A = Args->get(I);
      if (A.getKind() == TemplateArgument::Type)
        S += signatureSpelling(A.getAsType(), Ctx);
      else {
        llvm::raw_string_ostream OS(S);
        A.print(PrintingPolicy(Ctx.getLangOpts()), OS, /*IncludeType=*/true);
      }
    }
    S += '>';
  }
  S += '(';
  for (unsigned I = 0; I < MD->getNumParams(); ++I) {
    if (I)
      S += ", ";
    // Top-level qualifiers are not part of a function's type: `f(T *const)`
    // in a definition declares the same method as `f(T *)` in its header.
    S += signatureSpelling(MD->getParamDecl(I)->getType().getUnqualifiedType(), Ctx);
  }
  S += ')';
  if (MD->isConst())
    S += " const";
  return S;
}

} // namespace pocc
