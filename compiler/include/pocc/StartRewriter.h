//===- StartRewriter.h - `start`: what a start keyword starts ---*- C++ -*-===//
//
// The pre-pass (StartKeyword.h) blanks each `start` keyword and notes where
// the expression it starts begins; the families of rewrites consume the
// keyword where they rewrite that expression (a remote call or creation).
// This family owns those offsets, reports the `start`s nobody consumed, and
// rewrites a started call that is not remote: one on a local object runs
// after the calls started on it before, in order, and any other runs as a
// local task.
//
//===----------------------------------------------------------------------===//
#ifndef POCC_STARTREWRITER_H
#define POCC_STARTREWRITER_H

#include "pocc/RewriteContext.h"

#include <map>
#include <set>
#include <string>

namespace pocc {

/// Where the pre-pass found `start` keywords: per file, started expression
/// offset -> keyword offset.
using StartKeywordOffsets = std::map<clang::FileID, std::map<unsigned, unsigned>>;

/// Consumes `start` keywords, and rewrites started calls that are not
/// remote.
class StartRewriter {
public:
  StartRewriter(RewriteContext &Ctx, StartKeywordOffsets StartOffsets)
      : Ctx(Ctx), StartOffsets(std::move(StartOffsets)) {}

  /// Reports every `start` the rewrites did not consume (not before a call).
  void reportStrayStarts();
  /// Consumes a `start` keyword in front of \p Begin, if there is one.
  bool takeStart(clang::SourceLocation Begin);
  /// Consumes the `start` of a remote call beginning at \p Begin, if there
  /// is one (takeStartOf), and returns the suffix of the client wrapper
  /// that call needs: "_start" if its value is dropped, "_future" if it is
  /// used, "" if it is not started.
  std::string startedVariant(clang::SourceLocation Begin);
  /// A started call of a method of a local object (through `.`, `this` or
  /// a pointer to a class that is not remotable; \p Member is the callee)
  /// runs on that object, in order with the calls started on it before:
  /// `::poc::start_on(&obj, [=](auto *poc_self) { return poc_self->f(x); })`,
  /// `start_on_future` where the value is used.
  bool startOnObjectIfStarted(const clang::CallExpr *E, const clang::Expr *Member);
  /// A started call that is not remote runs as a local task.
  bool startLocalIfStarted(const clang::Expr *E);

private:
  /// takeStart for a call beginning at \p Begin, and an error if the
  /// started call is an operand of an operator, or of a fold expression
  /// other than a comma fold.
  bool takeStartOf(clang::SourceLocation Begin);
  /// True if the value of the expression being visited is not used (an
  /// expression statement, the left operand of a comma, a cast to void, an
  /// operand of a comma fold or the right operand of a comma so used).
  bool isDiscarded();
  /// The operator right before the `start` keyword at \p Keyword that the
  /// pre-pass blanked (`1 + start p->f()`), or "" if none is.
  std::string operatorBefore(clang::SourceLocation Keyword) const;
  /// Makes the end of local variable \p VD, which a call is started on,
  /// wait for the calls started on it (a `::poc::started_calls_guard`
  /// declared right after it; once per variable), so that none runs on a
  /// destroyed object. \p Start is where the started call is.
  void guardStartedObject(const clang::VarDecl *VD, clang::SourceLocation Start);
  void startLocal(const clang::Expr *E);

  RewriteContext &Ctx;
  /// The keywords not consumed yet.
  StartKeywordOffsets StartOffsets;
  /// The local variables guardStartedObject guarded.
  std::set<const clang::VarDecl *> GuardedObjects;
  /// Where the keyword that takeStart consumed last was.
  clang::SourceLocation LastStartKeyword;
};

} // namespace pocc

#endif
