//===- PersistenceRewriter.cpp - `"poc://"` addresses, persistence --------===//
#include "pocc/PersistenceRewriter.h"

#include "pocc/Persistence.h"
#include "pocc/TypeNames.h"

using namespace clang;

namespace pocc {

bool PersistenceRewriter::rewriteAddressLiteral(const CallExpr *E) {
  if (!isAddressLiteral(E))
    return false;
  // The conversion that consumes the marker's value, if any, is among the
  // enclosing expressions (Ctx.Parents.back() is E itself).
  const CXXRecordDecl *RD = nullptr;
  for (size_t I = Ctx.Parents.size() - 1; I-- > 0;) {
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Ctx.Parents[I])) {
      RD = persistentClass(MC);
      break;
    }
    if (!isImplicitWrapper(Ctx.Parents[I]) && !isa<MemberExpr>(Ctx.Parents[I]))
      break;
  }
  SourceLocation Begin = Ctx.SM->getExpansionLoc(E->getBeginLoc());
  SourceLocation End = Ctx.afterToken(Ctx.SM->getExpansionLoc(E->getEndLoc()));
  // The marker is one character shorter than the literal; drop its padding.
  if (*Ctx.SM->getCharacterData(End) == ' ')
    End = End.getLocWithOffset(1);
  // The marker's argument is the address as the user wrote it, quoted.
  llvm::StringRef Quoted = Lexer::getSourceText(
      CharSourceRange::getTokenRange(E->getArg(0)->getSourceRange()), *Ctx.SM, Ctx.LangOpts);
  if (!RD) {
    // Not a class pointer: the literal was an ordinary string.
    Ctx.replace(Begin, End, "\"poc://" + Quoted.drop_front(1).str());
    return true;
  }
  checkPersistable(RD, Begin);
  Ctx.replace(Begin, End,
              "::poc::persistent<" + codeSpelling(Ctx.AST->getRecordType(RD), *Ctx.AST) + ">(" +
                  Quoted.str() + ")");
  return true;
}

void PersistenceRewriter::checkPersistentCall(const CallExpr *E) {
  if (const CXXRecordDecl *RD = persistentClass(E))
    checkPersistable(RD, E->getBeginLoc());
}

void PersistenceRewriter::checkPersistable(const CXXRecordDecl *RD, SourceLocation At) {
  if (!RD->hasDefinition())
    return; // Clang has reported the incomplete type
  RD = RD->getDefinition();
  if (auto U = Ctx.Sendable->checkState(RD)) {
    Ctx.Diags.report(At, Diag::NotPersistable)
        << className(RD)
        << U->Reason + "; or give the class poc_write/poc_read members "
                       "(docs/serialization.md)";
    if (U->Culprit)
      Ctx.Diags.report(U->Culprit->getLocation(), Diag::DeclaredHere) << U->Culprit->getName();
  } else if (!RD->hasDefaultConstructor()) {
    Ctx.Diags.report(At, Diag::NotPersistable)
        << className(RD)
        << "it has no default constructor, which activation needs to make "
           "the object its saved state is loaded into";
  }
}

} // namespace pocc
