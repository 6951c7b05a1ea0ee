//===- PersistenceRewriter.h - `"poc://"` addresses, persistence -*- C++ -*-===//
//
// The rewrites and checks of persistent processes: a `"poc://..."` literal
// (which the pre-pass turned into a marker, Persistence.h) becomes the
// persistent process it names where a class pointer takes it, and stays a
// string elsewhere; a class whose processes are saved, activated or named
// by address must have a state that can be saved.
//
//===----------------------------------------------------------------------===//
#ifndef POCC_PERSISTENCEREWRITER_H
#define POCC_PERSISTENCEREWRITER_H

#include "pocc/RewriteContext.h"

namespace pocc {

/// Rewrites `"poc://..."` addresses and checks persistable classes.
class PersistenceRewriter {
public:
  explicit PersistenceRewriter(RewriteContext &Ctx) : Ctx(Ctx) {}

  /// Rewrites \p E if it is the marker of a `"poc://..."` literal; false if
  /// it is not one.
  bool rewriteAddressLiteral(const clang::CallExpr *E);
  /// Reports if \p E names or creates a persistent process (a call of
  /// poc::persistent<T> or poc::make_persistent<T>, or the conversion of an
  /// address to T*) of a class that cannot be persistent.
  void checkPersistentCall(const clang::CallExpr *E);
  /// Reports if processes of \p RD cannot be persistent.
  void checkPersistable(const clang::CXXRecordDecl *RD, clang::SourceLocation At);

private:
  RewriteContext &Ctx;
};

} // namespace pocc

#endif
