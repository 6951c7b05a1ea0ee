//===- CreationRewriter.h - Creation and deletion of processes --*- C++ -*-===//
//
// `new (m) T(args)` becomes a call of T's client wrapper for that
// constructor (`start_create` if started, `make_persistent` at a persistent
// address), `new (m) E[n]` a remote array, `new (m) T` of a template
// parameter a creation chosen at instantiation (DependentCalls.h), and the
// `delete` of an object that may be a process or a remote array ends it.
//
//===----------------------------------------------------------------------===//
#ifndef POCC_CREATIONREWRITER_H
#define POCC_CREATIONREWRITER_H

#include "pocc/PersistenceRewriter.h"
#include "pocc/RewriteContext.h"
#include "pocc/StartRewriter.h"

#include <set>

namespace pocc {

/// Rewrites the creation and deletion of processes and remote arrays, for
/// the nodes of the user's files RewriteVisitor passes on.
class CreationRewriter {
public:
  CreationRewriter(RewriteContext &Ctx, StartRewriter &Starts, PersistenceRewriter &Persistence)
      : Ctx(Ctx), Starts(Starts), Persistence(Persistence) {}

  /// `start p = new (m) T(...)`: the creation is what is started.
  bool VisitBinaryOperator(clang::BinaryOperator *E);
  /// `start T *p = new (m) T(...)`: the creation is what is started.
  bool VisitDeclStmt(clang::DeclStmt *S);
  bool VisitCXXNewExpr(clang::CXXNewExpr *E);
  bool VisitCXXDeleteExpr(clang::CXXDeleteExpr *E);

private:
  /// `new (m) T(args)` with a template parameter `T` (DependentCalls.h).
  void rewriteDependentNew(const clang::CXXNewExpr *E, bool Started);

  RewriteContext &Ctx;
  StartRewriter &Starts;
  PersistenceRewriter &Persistence;
  /// The creations whose `start` was consumed in front of the assignment or
  /// declaration they are the value of.
  std::set<const clang::CXXNewExpr *> StartedNews;
};

} // namespace pocc

#endif
