//===- ElementRewriter.h - Elements of remote arrays ------------*- C++ -*-===//
//
// An element of an array that may be remote (`data[i]`, `*data`, through a
// scalar pointer RemoteModel says may hold one) is read or written by the
// runtime: a read becomes its value, `::poc::element_value(data, i)`, a
// write an element reference, `::poc::element(data, i)`. Binding it to a
// reference cannot be done and is reported.
//
//===----------------------------------------------------------------------===//
#ifndef POCC_ELEMENTREWRITER_H
#define POCC_ELEMENTREWRITER_H

#include "pocc/RewriteContext.h"

namespace pocc {

/// How an element of a possibly remote array (`p[i]`, `*p`) is used.
enum class ElementUse {
  Read,      ///< its value: becomes ::poc::element_value(p, i)
  Write,     ///< assigned, updated, incremented: ::poc::element(p, i)
  Address,   ///< `&p[i]`: an address, nothing is read
  Reference, ///< bound to a non-const reference: not supported
};

/// Rewrites the elements of remote arrays, for the nodes of the user's
/// files RewriteVisitor passes on.
class ElementRewriter {
public:
  explicit ElementRewriter(RewriteContext &Ctx) : Ctx(Ctx) {}

  bool VisitArraySubscriptExpr(clang::ArraySubscriptExpr *E);
  /// `*p`, the element at index 0.
  bool VisitUnaryOperator(clang::UnaryOperator *E);

private:
  /// How the expression \p E, which is Parents[At], is used (for an
  /// element `p[i]` or `*p`, or a member of one).
  ElementUse elementUse(const clang::Expr *E, size_t At) const;
  /// Rewrites the element expression \p E of array \p Base at index
  /// \p Idx (null: `*Base`) for its use: reads become values, writes
  /// element references; a non-const reference binding is an error.
  void rewriteElement(const clang::Expr *E, const clang::Expr *Base, const clang::Expr *Idx);

  RewriteContext &Ctx;
};

} // namespace pocc

#endif
