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

/// The alternative spellings of operators, which the raw lexer returns as
/// identifiers: `return start and x;` uses a name `start`.
bool isOperatorName(const RawTok &T) {
  static const char *const Names[] = {"and",    "and_eq", "bitand", "bitor", "compl", "not",
                                      "not_eq", "or",     "or_eq",  "xor",   "xor_eq"};
  for (const char *N : Names)
    if (isIdent(T, N))
      return true;
  return false;
}

/// +1 for an opening bracket, -1 for a closing one, else 0.
int nesting(tok::TokenKind K) {
  if (K == tok::l_paren || K == tok::l_square || K == tok::l_brace)
    return 1;
  if (K == tok::r_paren || K == tok::r_square || K == tok::r_brace)
    return -1;
  return 0;
}

/// Index of the token that ends the expression beginning at \p Begin: the
/// first `;` `,` `)` `]` `}` `:` or `?` outside brackets (Toks.size() if
/// none).
size_t expressionEnd(const std::vector<RawTok> &Toks, size_t Begin) {
  int Depth = 0;
  for (size_t I = Begin; I < Toks.size(); ++I) {
    tok::TokenKind K = Toks[I].Kind;
    Depth += nesting(K);
    if (Depth < 0 || K == tok::semi) // a statement ends at `;`, whatever the nesting
      return I;
    if (Depth == 0 && (K == tok::comma || K == tok::colon || K == tok::question))
      return I;
  }
  return Toks.size();
}

/// True if the `:` at \p Colon closes a conditional `c ? a : b` (then what
/// follows is an operand), not a label, a `case` or a base-clause.
bool isConditionalColon(const std::vector<RawTok> &Toks, size_t Colon) {
  int Depth = 0, Colons = 0;
  for (size_t I = Colon; I-- > 0;) {
    tok::TokenKind K = Toks[I].Kind;
    Depth -= nesting(K);
    if (Depth < 0 || K == tok::semi)
      return false;
    if (Depth == 0 && K == tok::colon)
      ++Colons;
    if (Depth == 0 && K == tok::question && Colons-- == 0)
      return true;
  }
  return false;
}

/// Where `start` stands, from the token before it.
enum class Position {
  None,      ///< not before an expression: `start` is a name
  Statement, ///< at the beginning of a statement: the value is discarded
  Value,     ///< an operand, argument, initialiser or returned value
  Either,    ///< after `{`, `)` or `:`: a statement if it ends with `;`
  Fold,      ///< an operand of a fold expression, `(start p->f(), ...)`
  Operand,   ///< an operand of another operator: blanked, and an error
};

bool isBinaryOperatorToken(const RawTok &T) {
  switch (T.Kind) {
  case tok::raw_identifier:
  case tok::numeric_constant:
  case tok::r_paren:
  case tok::r_square:
  case tok::r_brace:
  case tok::l_paren:
  case tok::ellipsis:
    return false;
  default:
    return true;
  }
}

/// True if the `start` at \p I is an operand of a fold expression: `(start
/// e op ...)` or `(... op start e)`. A fold's operand cannot be a binary
/// expression, so it gets no marker.
bool isFoldOperand(const std::vector<RawTok> &Toks, size_t I) {
  const RawTok &Prev = Toks[I - 1];
  if (Prev.Kind == tok::l_paren) {
    // `(start e op ...)`, and not a call `f(start e, xs...)`.
    if (I >= 2) {
      const RawTok &Before = Toks[I - 2];
      bool Keyword = isIdent(Before, "return") || isIdent(Before, "co_return") ||
                     isIdent(Before, "co_yield") || isIdent(Before, "co_await") ||
                     isIdent(Before, "throw");
      if ((Before.Kind == tok::raw_identifier && !Keyword) || Before.Kind == tok::r_paren ||
          Before.Kind == tok::r_square || Before.Kind == tok::greater)
        return false;
    }
    size_t Close = matchParen(Toks, I - 1);
    return Close < Toks.size() && Close >= I + 2 && Toks[Close - 1].Kind == tok::ellipsis &&
           isBinaryOperatorToken(Toks[Close - 2]);
  }
  // `(... op start e)`.
  return I >= 3 && isBinaryOperatorToken(Prev) && Toks[I - 2].Kind == tok::ellipsis &&
         Toks[I - 3].Kind == tok::l_paren;
}

Position positionAfter(const std::vector<RawTok> &Toks, size_t I) {
  const RawTok &Prev = Toks[I - 1];
  switch (Prev.Kind) {
  case tok::semi:
  case tok::r_brace:
    return Position::Statement;
  case tok::l_brace:
  case tok::r_paren:
    return Position::Either;
  case tok::colon:
    return isConditionalColon(Toks, I - 1) ? Position::Value : Position::Either;
  case tok::equal:    // an initialiser or an assigned value
  case tok::l_paren:  // an argument, a fold expression, a parenthesised operand
  case tok::comma:    // an argument, an element of an initializer list
  case tok::question: // the operand of a conditional
    return Position::Value;
  // `x + start p->f()`: a future is no operand of these. The keyword is
  // blanked, so that the parse sees the call, and the translation reports
  // it (StartRewriter::takeStartOf). (`<` and `>` may close template
  // arguments and are left alone.)
  case tok::plus:
  case tok::minus:
  case tok::star:
  case tok::slash:
  case tok::percent:
  case tok::lessless:
  case tok::greatergreater:
  case tok::lessequal:
  case tok::greaterequal:
  case tok::equalequal:
  case tok::exclaimequal:
  case tok::amp:
  case tok::ampamp:
  case tok::pipe:
  case tok::pipepipe:
  case tok::caret:
  case tok::exclaim:
  case tok::tilde:
  case tok::plusequal:
  case tok::minusequal:
  case tok::starequal:
  case tok::slashequal:
  case tok::percentequal:
  case tok::lesslessequal:
  case tok::greatergreaterequal:
  case tok::ampequal:
  case tok::pipeequal:
  case tok::caretequal:
    return Position::Operand;
  default:
    if (isIdent(Prev, "else") || isIdent(Prev, "do"))
      return Position::Statement;
    if (isIdent(Prev, "return") || isIdent(Prev, "co_return") || isIdent(Prev, "co_yield") ||
        isIdent(Prev, "co_await"))
      return Position::Value;
    return Position::None;
  }
}

/// True if the tokens after the `start` at \p I can begin a started call or
/// creation (and not a use of a name `start`).
bool beginsStartedExpression(const std::vector<RawTok> &Toks, size_t I, bool AtStatement) {
  const RawTok &Next = Toks[I + 1];
  switch (Next.Kind) {
  case tok::raw_identifier:
    // `start:` is a label, `start x` can only be the keyword here (but
    // `start and x` is an operator).
    return !isOperatorName(Next);
  case tok::coloncolon:
    // `start ::f()` is the keyword; `start::f()` names a scope `start`.
    return Next.LeadingSpace;
  case tok::l_paren: {
    // `start (p)->f()` is the keyword, and so is an operator of a process,
    // `start (*p)(x)` or `start (*p)[i]`; `start(x)` and the constructor
    // initializer `: start(0)` call or initialise something named start,
    // and so does `start()` (`start().f()`, `start()->run()`): nothing
    // can be started in empty parentheses.
    size_t Close = matchParen(Toks, I + 1);
    if (Close == I + 2)
      return false;
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

/// How the keyword `start` at \p I is replaced, or None if it is a name.
Position keywordPosition(const std::vector<RawTok> &Toks, size_t I) {
  if (I == 0 || I + 1 >= Toks.size())
    return Position::None;
  Position P = isFoldOperand(Toks, I) ? Position::Fold : positionAfter(Toks, I);
  if (P == Position::Either) {
    // `{ start p->f(); }` is a statement, `v{start p->f()}` an element;
    // `if (c) start p->f();` a statement; `case 1: start p->f();` too.
    size_t End = expressionEnd(Toks, I + 1);
    P = End < Toks.size() && Toks[End].Kind == tok::semi ? Position::Statement : Position::Value;
  }
  if (P == Position::None || !beginsStartedExpression(Toks, I, P == Position::Statement))
    return Position::None;
  return P;
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
    if (!isIdent(Toks[I], "start"))
      continue;
    Position P = keywordPosition(Toks, I);
    if (P == Position::None)
      continue;
    if (Scan.Text.empty())
      Scan.Text = Source.str();
    // Where the value is used (after `=`, `return`, `(`, `,`, in an
    // initializer list, an operand of `?:`), it is a future. A creation is
    // not wrapped: `start` makes it return its reference at once, of the
    // same type.
    bool Marker = P == Position::Value && !isIdent(Toks[I + 1], "new");
    Scan.Text.replace(Toks[I].Offset, Toks[I].Length,
                      Marker ? "_Pst^" : std::string(Toks[I].Length, ' '));
    Scan.ExprOffsets.push_back(Toks[I + 1].Offset);
    Scan.KeywordOffsets.push_back(Toks[I].Offset);
  }
  return Scan;
}

} // namespace pocc
