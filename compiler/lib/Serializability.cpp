//===- Serializability.cpp - what can be sent to another process ----------===//
#include "pocc/Serializability.h"

#include "clang/AST/Attr.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/StringSwitch.h"

using namespace clang;

namespace pocc {

namespace {
const char *const RawPointerRemedy =
    "a raw pointer to non-class data with no known length; use std::vector, "
    "std::span or a POC_COUNT(n) annotation from <poc/annotations.hpp>";

/// Standard library templates the runtime serialises (docs/runtime.md 3.4).
bool isSendableStdTemplate(StringRef Name) {
  return llvm::StringSwitch<bool>(Name)
      .Cases("basic_string", "vector", "array", "deque", "list", true)
      .Cases("map", "unordered_map", "set", "unordered_set", true)
      .Cases("pair", "tuple", "optional", true)
      .Cases("variant", "unique_ptr", "shared_ptr", true)
      .Cases("allocator", "less", "hash", "equal_to", "char_traits", true)
      .Case("default_delete", true)
      .Default(false);
}
} // namespace

namespace {
bool hasUserSerializer(const CXXRecordDecl *RD) {
  ASTContext &Ctx = RD->getASTContext();
  // Name lookup, not a walk over the translation unit: that would load
  // every declaration of a precompiled header.
  for (const NamedDecl *N : Ctx.getTranslationUnitDecl()->lookup(&Ctx.Idents.get("poc"))) {
    const auto *NS = dyn_cast<NamespaceDecl>(N);
    if (!NS)
      continue;
    for (const NamedDecl *M : NS->lookup(&Ctx.Idents.get("Serializer"))) {
      const auto *CTD = dyn_cast<ClassTemplateDecl>(M);
      if (!CTD)
        continue;
      for (const ClassTemplateSpecializationDecl *S : CTD->specializations())
        if (S->getSpecializationKind() == TSK_ExplicitSpecialization &&
            S->getTemplateArgs().size() > 0 &&
            S->getTemplateArgs()[0].getKind() == TemplateArgument::Type &&
            Ctx.hasSameType(S->getTemplateArgs()[0].getAsType(), Ctx.getRecordType(RD)))
          return true;
    }
  }
  return false;
}

bool hasOwnSerialization(const CXXRecordDecl *RD) {
  bool W = false, R = false;
  for (const CXXMethodDecl *MD : RD->methods()) {
    if (MD->getName() == "poc_write")
      W = true;
    if (MD->getName() == "poc_read")
      R = true;
  }
  return W && R;
}
} // namespace

bool serializesItself(const CXXRecordDecl *RD) {
  return hasOwnSerialization(RD) || hasUserSerializer(RD);
}

std::string Serializability::countOf(const Decl *D) {
  for (const auto *A : D->specific_attrs<AnnotateAttr>()) {
    StringRef S = A->getAnnotation();
    if (S.consume_front("poc::count:"))
      return S.trim().str();
  }
  return {};
}

std::optional<Unsendable> Serializability::checkParam(const ParmVarDecl *P, ParamKind &Kind) {
  QualType T = P->getType();
  Kind = ParamKind::Value;
  if (!countOf(P).empty()) {
    const auto *PT = T->getAs<PointerType>();
    if (!PT)
      return Unsendable{"POC_COUNT applies to pointer parameters only", P};
    Kind = ParamKind::Counted;
    return check(PT->getPointeeType());
  }
  if (const auto *RT = T->getAs<LValueReferenceType>()) {
    if (!RT->getPointeeType().isConstQualified())
      Kind = ParamKind::CopyBack;
    return check(RT->getPointeeType());
  }
  if (const auto *PT = T->getAs<PointerType>()) {
    QualType E = PT->getPointeeType();
    if (const auto *RD = E->getAsCXXRecordDecl()) {
      if (IsRemotable(RD))
        return std::nullopt; // a process reference
      if (!E.isConstQualified())
        Kind = ParamKind::CopyBack;
      return check(E);
    }
    if (!E->isFunctionType() && !E->isVoidType() && !E->isPointerType()) {
      Kind = ParamKind::RemoteArray;
      return std::nullopt;
    }
  }
  return check(T);
}

std::optional<Unsendable> Serializability::checkResult(QualType T) {
  if (T->isVoidType())
    return std::nullopt;
  if (T->isReferenceType())
    return Unsendable{"a reference cannot refer into another process; "
                      "return by value",
                      nullptr};
  return check(T);
}

std::optional<Unsendable> Serializability::check(QualType T) {
  T = T.getNonReferenceType().getCanonicalType().getUnqualifiedType();
  if (T->isArithmeticType() || T->isEnumeralType() || T->isNullPtrType())
    return std::nullopt;
  if (const auto *AT = Ctx.getAsConstantArrayType(T))
    return check(AT->getElementType());
  if (T->isFunctionPointerType() || T->isMemberPointerType() || T->isFunctionType())
    return Unsendable{"a pointer to a function or member, which has no meaning "
                      "in another process; send data that selects the "
                      "function instead",
                      nullptr};
  if (const auto *PT = T->getAs<PointerType>()) {
    QualType E = PT->getPointeeType();
    if (const auto *RD = E->getAsCXXRecordDecl()) {
      if (IsRemotable(RD))
        return std::nullopt;
      return check(E);
    }
    if (E->isVoidType())
      return Unsendable{"an untyped 'void*' with no known type or length; use "
                        "a typed container such as std::vector",
                        nullptr};
    return Unsendable{RawPointerRemedy, nullptr};
  }
  if (const auto *RD = T->getAsCXXRecordDecl())
    return checkRecord(RD);
  return Unsendable{"a type poc++ does not know how to send", nullptr};
}

std::optional<Unsendable> Serializability::checkStdRecord(const CXXRecordDecl *RD) {
  if (!isSendableStdTemplate(RD->getName()))
    return Unsendable{"a library type that poc++ cannot send; send the "
                      "data it holds (e.g. in a std::vector or a struct) "
                      "instead",
                      nullptr};
  if (const auto *TS = dyn_cast<ClassTemplateSpecializationDecl>(RD))
    for (const TemplateArgument &A : TS->getTemplateArgs().asArray())
      if (A.getKind() == TemplateArgument::Type)
        if (auto U = check(A.getAsType()))
          return U;
  return std::nullopt;
}

std::optional<Unsendable> Serializability::checkRecord(const CXXRecordDecl *RD) {
  if (!RD->hasDefinition())
    return Unsendable{"an incomplete class", RD};
  RD = RD->getDefinition();
  if (RD->isInStdNamespace())
    return checkStdRecord(RD);
  auto It = Memo.find(RD);
  if (It != Memo.end())
    return It->second;
  Memo[RD] = std::nullopt; // in progress: recursion through pointers is fine
  std::optional<Unsendable> Result;
  const SourceManager &SM = Ctx.getSourceManager();
  bool Own = serializesItself(RD);
  if (Own) {
    // The class writes itself, or the user wrote its Serializer.
  } else if (RD->isUnion() || RD->isLambda()) {
    Result = Unsendable{"a union or lambda, which poc++ cannot send", RD};
  } else if (SM.isInSystemHeader(RD->getLocation())) {
    Result = Unsendable{"a library type that poc++ cannot send; send "
                        "the data it holds instead",
                        RD};
  } else {
    for (const CXXBaseSpecifier &B : RD->bases()) {
      if (B.isVirtual()) {
        Result = Unsendable{"a class with virtual bases, which poc++ cannot send", RD};
        break;
      }
      if (const auto *BR = B.getType()->getAsCXXRecordDecl())
        if (auto U = checkRecord(BR)) {
          Result = U;
          break;
        }
    }
    for (const FieldDecl *F : RD->fields()) {
      if (Result)
        break;
      QualType FT = F->getType();
      if (FT->isReferenceType()) {
        Result = Unsendable{
            "member '" + F->getNameAsString() + "', a reference; use a value or pointer", F};
        break;
      }
      if (FT.isConstQualified()) {
        Result = Unsendable{"member '" + F->getNameAsString() +
                                "' is const, so a received value cannot be "
                                "stored into it",
                            F};
        break;
      }
      if (!countOf(F).empty() && FT->isPointerType()) {
        if (auto U = check(FT->getPointeeType()))
          Result = Unsendable{"member '" + F->getNameAsString() + "': " + U->Reason,
                              U->Culprit ? U->Culprit : F};
        continue;
      }
      if (auto U = check(FT))
        Result = Unsendable{"member '" + RD->getNameAsString() + "::" + F->getNameAsString() +
                                "' of type '" + FT.getAsString() + "', " + U->Reason,
                            U->Culprit ? U->Culprit : F};
    }
  }
  Memo[RD] = Result;
  if (!Result && !Own)
    Ordered.insert(RD);
  return Result;
}

} // namespace pocc
