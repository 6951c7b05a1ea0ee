//===- LayoutHash.cpp - class layout hashes for persistent state ----------===//
#include "pocc/LayoutHash.h"
#include "pocc/Serializability.h"
#include "pocc/TypeNames.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclTemplate.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringExtras.h"

#include <functional>

using namespace clang;

namespace pocc {

namespace {

/// Collects the user classes whose fields are stored as part of a value of
/// type \p T: through template arguments, arrays and (deep-copied) pointers.
void reachedClasses(QualType T, llvm::SetVector<const CXXRecordDecl *> &Out) {
  T = T.getNonReferenceType().getCanonicalType().getUnqualifiedType();
  if (const auto *AT = dyn_cast<ArrayType>(T.getTypePtr()))
    return reachedClasses(AT->getElementType(), Out);
  if (const auto *PT = T->getAs<PointerType>())
    return reachedClasses(PT->getPointeeType(), Out);
  const auto *RD = T->getAsCXXRecordDecl();
  if (!RD)
    return;
  if (const auto *TS = dyn_cast<ClassTemplateSpecializationDecl>(RD))
    for (const TemplateArgument &A : TS->getTemplateArgs().asArray())
      if (A.getKind() == TemplateArgument::Type)
        reachedClasses(A.getAsType(), Out);
  if (!RD->isInStdNamespace() && RD->hasDefinition())
    Out.insert(RD->getDefinition());
}

/// `poc_layout_hash`'s value if \p RD declares it as a constant, else "".
std::string declaredLayoutHash(const CXXRecordDecl *RD) {
  for (const Decl *D : RD->decls())
    if (const auto *VD = dyn_cast<VarDecl>(D))
      if (VD->getName() == "poc_layout_hash" && VD->isStaticDataMember())
        if (const APValue *V = VD->evaluateValue(); V && V->isInt())
          return llvm::toString(V->getInt(), 16);
  return "";
}

/// One class's own part of the description; adds the classes it reaches.
std::string describe(const CXXRecordDecl *RD, llvm::SetVector<const CXXRecordDecl *> &Reached) {
  const ASTContext &Ctx = RD->getASTContext();
  std::string S = className(RD);
  // A class that writes itself stores what its poc_write writes: its own
  // version if it declares one, else (the best guess poc++ has) its fields,
  // which its format follows when they change.
  if (serializesItself(RD)) {
    std::string Declared = declaredLayoutHash(RD);
    if (!Declared.empty())
      return S + "{own:" + Declared + "}";
    S += "{own:";
  } else {
    S += "{";
  }
  for (const CXXBaseSpecifier &B : RD->bases()) {
    S += ":" + signatureSpelling(B.getType(), Ctx) + ";";
    reachedClasses(B.getType(), Reached);
  }
  for (const FieldDecl *F : RD->fields()) {
    S += signatureSpelling(F->getType(), Ctx) + " " + F->getNameAsString();
    std::string Count = Serializability::countOf(F);
    if (!Count.empty())
      S += "[" + Count + "]";
    S += ";";
    reachedClasses(F->getType(), Reached);
  }
  return S + "}";
}

} // namespace

std::string canonicalLayout(const CXXRecordDecl *RD) {
  // Breadth-first over reached classes, each described once, so recursive
  // types (a class holding a pointer to its own type) terminate.
  llvm::SetVector<const CXXRecordDecl *> Classes;
  Classes.insert(RD->getDefinition() ? RD->getDefinition() : RD);
  std::string S;
  for (size_t I = 0; I < Classes.size(); ++I)
    S += describe(Classes[I], Classes);
  return S;
}

std::string reachedLayout(llvm::ArrayRef<QualType> Types,
                          const std::function<bool(const CXXRecordDecl *)> &IsProcessClass) {
  llvm::SetVector<const CXXRecordDecl *> Classes;
  for (QualType T : Types)
    reachedClasses(T, Classes);
  std::string S;
  // A process class travels as a reference: its fields never do.
  for (size_t I = 0; I < Classes.size(); ++I)
    if (!IsProcessClass(Classes[I]))
      S += describe(Classes[I], Classes);
  return S;
}

std::string stringLiteralBody(llvm::StringRef Text) {
  std::string Out;
  for (char C : Text) {
    if (C == '"' || C == '\\')
      Out += '\\';
    Out += C;
  }
  return Out;
}

bool needsGeneratedLayoutHash(const CXXRecordDecl *RD) {
  return serializesItself(RD) && declaredLayoutHash(RD).empty();
}

std::string emitLayoutHash(const CXXRecordDecl *RD) {
  const ASTContext &Ctx = RD->getASTContext();
  std::string Type = codeSpelling(Ctx.getRecordType(RD), Ctx);
  std::string Layout = stringLiteralBody(canonicalLayout(RD));
  return "// poc++: layout of class '" + className(RD) +
         "', checked when its persistent state is loaded.\n"
         "namespace poc {\ntemplate <> struct LayoutHash<" +
         Type +
         "> {\n[[maybe_unused]] static constexpr std::uint64_t value = ::poc::layout_hash(\"" +
         Layout + "\");\n};\n} // namespace poc\n";
}

} // namespace pocc
