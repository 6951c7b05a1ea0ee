//===- Persistence.cpp - persistent processes in the language -------------===//
#include "pocc/Persistence.h"

#include "clang/AST/DeclTemplate.h"
#include "clang/Basic/LangOptions.h"
#include "clang/Lex/Lexer.h"

using namespace clang;

namespace pocc {

namespace {
constexpr llvm::StringLiteral Scheme = "\"poc://";

/// True if the raw token \p T is the identifier \p Name.
bool isIdentifier(const Token &T, llvm::StringRef Name) {
  return T.is(tok::raw_identifier) && T.getRawIdentifier() == Name;
}

/// True if \p RD is the class named \p QualifiedName.
bool isRecord(const CXXRecordDecl *RD, llvm::StringRef QualifiedName) {
  return RD && RD->getQualifiedNameAsString() == QualifiedName;
}
} // namespace

std::string markAddressLiterals(llvm::StringRef Source, const LangOptions &LangOpts) {
  // Cheap filter: almost no file names a persistent address.
  if (Source.find(Scheme) == llvm::StringRef::npos)
    return {};
  std::string Text;
  Lexer L(SourceLocation(), LangOpts, Source.begin(), Source.begin(), Source.end());
  Token Prev, Cur, Next;
  Prev.startToken();
  Cur.startToken();
  bool More = !L.LexFromRawLexer(Next);
  // Slide a window of three tokens; Cur is a candidate literal.
  while (true) {
    Prev = Cur;
    Cur = Next;
    if (!More)
      break;
    More = !L.LexFromRawLexer(Next);
    if (!Cur.is(tok::string_literal))
      continue;
    llvm::StringRef Lit(Cur.getLiteralData(), Cur.getLength());
    bool Whole = (Prev.is(tok::equal) || isIdentifier(Prev, "return")) &&
                 Next.isOneOf(tok::semi, tok::comma, tok::r_paren);
    if (!Whole || !Lit.starts_with(Scheme))
      continue;
    // "poc://ADDR" -> _Pa("ADDR") plus one space: one character shorter.
    std::string Marked = (AddressMarker + "(\"" + Lit.drop_front(Scheme.size()) + ")").str();
    Marked.resize(Lit.size(), ' ');
    if (Text.empty())
      Text = Source.str();
    Text.replace(Lit.data() - Source.data(), Lit.size(), Marked);
  }
  return Text;
}

bool isPersistentNew(const CXXNewExpr *E) {
  if (E->getNumPlacementArgs() != 1)
    return false;
  QualType P = E->getPlacementArg(0)->getType();
  return isRecord(P->getAsCXXRecordDecl(), "poc::persistent_at");
}

bool isAddressLiteral(const CallExpr *E) {
  const auto *FD = dyn_cast_or_null<FunctionDecl>(E->getCalleeDecl());
  return FD && FD->getDeclName().isIdentifier() && FD->getName() == AddressMarker &&
         FD->getDeclContext()->isTranslationUnit();
}

const CXXRecordDecl *persistentClass(const Expr *E) {
  if (const auto *New = dyn_cast<CXXNewExpr>(E))
    return isPersistentNew(New) ? New->getAllocatedType()->getAsCXXRecordDecl() : nullptr;
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E)) {
    const auto *Conv = dyn_cast_or_null<CXXConversionDecl>(MC->getMethodDecl());
    if (!Conv || !isRecord(Conv->getParent(), "poc::parse::AddressLiteral"))
      return nullptr;
    return Conv->getConversionType()->getPointeeCXXRecordDecl();
  }
  const auto *Call = dyn_cast<CallExpr>(E);
  const auto *FD = Call ? dyn_cast_or_null<FunctionDecl>(Call->getCalleeDecl()) : nullptr;
  if (!FD || !FD->getDeclName().isIdentifier() ||
      (FD->getName() != "persistent" && FD->getName() != "make_persistent") ||
      FD->getQualifiedNameAsString() != ("poc::" + FD->getName()).str())
    return nullptr;
  const TemplateArgumentList *Args = FD->getTemplateSpecializationArgs();
  if (!Args || Args->size() == 0 || Args->get(0).getKind() != TemplateArgument::Type)
    return nullptr;
  return Args->get(0).getAsType()->getAsCXXRecordDecl();
}

} // namespace pocc
