//===- StartKeyword.cpp - the `start` keyword pre-pass --------------------===//
#include "pocc/StartKeyword.h"

#include "clang/Basic/LangOptions.h"
#include "clang/Lex/Lexer.h"

using namespace clang;

namespace pocc {

namespace {

/// One token of the raw token stream, preprocessor lines removed.
struct RawTok {
  tok::TokenKind Kind;
  llvm::StringRef Text; // identifiers only
  unsigned Offset;
  unsigned Length;
  bool LeadingSpace;
};

bool isIdent(const RawTok &T, llvm::StringRef Name) {
  return T.Kind == tok::raw_identifier && T.Text == Name;
}

std::vector<RawTok> lexFile(llvm::StringRef Source, const LangOptions &LangOpts) {
  std::vector<RawTok> Toks;
  Lexer L(SourceLocation(), LangOpts, Source.begin(), Source.begin(), Source.end());
  Token T;
  bool InDirective = false;
  while (!L.LexFromRawLexer(T)) {
    unsigned End = L.getBufferLocation() - Source.begin();
    unsigned Off = End - T.getLength();
    if (T.isAtStartOfLine())
      InDirective = T.is(tok::hash);
    if (InDirective)
      continue; // `start` inside #define bodies is left to the user
    RawTok R{T.getKind(), {}, Off, T.getLength(), T.hasLeadingSpace()};
    if (T.is(tok::raw_identifier))
      R.Text = T.getRawIdentifier();
    Toks.push_back(R);
  }
  return Toks;
}

/// Index of the token matching the `(` at \p Open, or Toks.size().
size_t matchParen(const std::vector<RawTok> &Toks, size_t Open) {
  int Depth = 0;
  for (size_t I = Open; I < Toks.size(); ++I) {
    if (Toks[I].Kind == tok::l_paren)
      ++Depth;
    else if (Toks[I].Kind == tok::r_paren && --Depth == 0)
      return I;
  }
  return Toks.size();
}

/// True if this file declares a type named `start` (then `start x;` is a
/// declaration and `start` is never taken as the keyword in the file).
bool declaresStartType(const std::vector<RawTok> &Toks) {
  bool InTypedef = false;
  for (size_t I = 0; I < Toks.size(); ++I) {
    const RawTok &T = Toks[I];
    if (T.Kind == tok::semi || T.Kind == tok::l_brace || T.Kind == tok::r_brace)
      InTypedef = false;
    if (isIdent(T, "typedef"))
      InTypedef = true;
    if (!isIdent(T, "start"))
      continue;
    const RawTok *Prev = I ? &Toks[I - 1] : nullptr;
    const RawTok *Next = I + 1 < Toks.size() ? &Toks[I + 1] : nullptr;
    if (Prev && (isIdent(*Prev, "struct") || isIdent(*Prev, "class") || isIdent(*Prev, "union") ||
                 isIdent(*Prev, "enum") || isIdent(*Prev, "typename")))
      return true;
    if (Prev && isIdent(*Prev, "using") && Next && Next->Kind == tok::equal)
      return true;
    if (InTypedef && Next && (Next->Kind == tok::semi || Next->Kind == tok::comma))
      return true;
  }
  return false;
}

/// Where a statement may begin: after `;`, `{`, `}`, `)` (of if/for/while),
/// `:` (labels), `else`, `do`.
bool endsStatementContext(const RawTok &Prev) {
  switch (Prev.Kind) {
  case tok::semi:
  case tok::l_brace:
  case tok::r_brace:
  case tok::r_paren:
  case tok::colon:
    return true;
  default:
    return isIdent(Prev, "else") || isIdent(Prev, "do");
  }
}

bool isKeywordStart(const std::vector<RawTok> &Toks, size_t I) {
  if (I == 0 || I + 1 >= Toks.size())
    return false;
  const RawTok &Prev = Toks[I - 1];
  const RawTok &Next = Toks[I + 1];
  bool AtStatement = endsStatementContext(Prev);
  bool AfterAssign = Prev.Kind == tok::equal;
  if (!AtStatement && !AfterAssign)
    return false;
  switch (Next.Kind) {
  case tok::raw_identifier:
    // `start:` is a label, `start x` can only be the keyword here.
    return true;
  case tok::coloncolon:
    // `start ::f()` is the keyword; `start::f()` names a scope `start`.
    return Next.LeadingSpace;
  case tok::l_paren: {
    // `start (p)->f()` is the keyword, and so is an operator of a process,
    // `start (*p)(x)` or `start (*p)[i]`; `start(x)` and the constructor
    // initializer `: start(0)` call or initialise something named start.
    size_t Close = matchParen(Toks, I + 1);
    if (Close + 1 >= Toks.size())
      return false;
    tok::TokenKind After = Toks[Close + 1].Kind;
    bool DerefOperand = I + 2 < Toks.size() && Toks[I + 2].Kind == tok::star;
    return After == tok::arrow || After == tok::period ||
           (DerefOperand && (After == tok::l_paren || After == tok::l_square));
  }
  case tok::star:
    // `x = start * y` multiplies; at statement start `start *p->f()` cannot.
    return AtStatement && I + 2 < Toks.size() &&
           (Toks[I + 2].Kind == tok::raw_identifier || Toks[I + 2].Kind == tok::l_paren);
  default:
    return false;
  }
}

} // namespace

StartScan scanStartKeywords(llvm::StringRef Source, const LangOptions &LangOpts) {
  StartScan Scan;
  // Cheap filter: most files never mention `start`.
  if (Source.find("start") == llvm::StringRef::npos)
    return Scan;
  std::vector<RawTok> Toks = lexFile(Source, LangOpts);
  if (declaresStartType(Toks))
    return Scan;
  for (size_t I = 0; I < Toks.size(); ++I) {
    if (!isIdent(Toks[I], "start") || !isKeywordStart(Toks, I))
      continue;
    if (Scan.Text.empty())
      Scan.Text = Source.str();
    // After `=` the value is used: a future. A creation is not wrapped:
    // `start` makes it return its reference at once, of the same type.
    bool Marker = Toks[I - 1].Kind == tok::equal && !isIdent(Toks[I + 1], "new");
    Scan.Text.replace(Toks[I].Offset, Toks[I].Length,
                      Marker ? "_Pst^" : std::string(Toks[I].Length, ' '));
    Scan.ExprOffsets.push_back(Toks[I + 1].Offset);
    Scan.KeywordOffsets.push_back(Toks[I].Offset);
  }
  return Scan;
}

} // namespace pocc
