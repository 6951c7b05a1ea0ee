//===- CallRewriter.h - Calls through pointers to processes -----*- C++ -*-===//
//
// A call through a pointer that may refer to another process, `p->f(args)`,
// `(*p).f(args)`, `(*p)(args)` or `(*p)[i]`, becomes a call of the method's
// client wrapper (`_start`/`_future` if started); in a template, where the
// method is chosen at instantiation, a call of a helper named after it
// (DependentCalls.h). Calls that are not remote go to the `start` family
// if they are started. A field of a process is no call and is reported, and
// so is a call that waits in the body of a POC_NONBLOCKING method.
//
//===----------------------------------------------------------------------===//
#ifndef POCC_CALLREWRITER_H
#define POCC_CALLREWRITER_H

#include "pocc/RewriteContext.h"
#include "pocc/StartRewriter.h"

#include <string>

namespace pocc {

/// Rewrites calls through pointers to processes, for the nodes of the
/// user's files RewriteVisitor passes on.
class CallRewriter {
public:
  CallRewriter(RewriteContext &Ctx, StartRewriter &Starts) : Ctx(Ctx), Starts(Starts) {}

  bool VisitCXXMemberCallExpr(clang::CXXMemberCallExpr *E);
  bool VisitCallExpr(clang::CallExpr *E);
  /// Reports `p->field` of a process: fields are not sent.
  bool VisitMemberExpr(clang::MemberExpr *E);

private:
  /// checkNoWait for a call of poc::sync, poc::wait_until or a poc::future's
  /// get or wait.
  void checkWaitingCall(const clang::CallExpr *E);
  /// Rewrites what lies between the callee, ending at \p AfterCallee, and
  /// the first explicit argument of \p Args (or the closing \p Close if
  /// there is none) into the separator of the wrapper's arguments: ", " if
  /// \p HaveLeading (the object) comes before them.
  void rewriteCallArgs(clang::SourceLocation AfterCallee, const clang::Expr *const *Args,
                       unsigned NumArgs, clang::SourceLocation Close, bool HaveLeading);
  /// Rewrites `p->f(args)` whose method is chosen when the template is
  /// instantiated (pocc/DependentCalls.h); false if \p E is not one.
  bool rewriteDependentCall(const clang::CallExpr *E);
  /// Rewrites `(*p)(args)` and `(*p)[i]` on a process into calls of its
  /// operator's client wrapper (other operators are diagnosed); false if
  /// \p E is not an operator of an object that may be a process.
  bool rewriteProcessOperator(const clang::CXXOperatorCallExpr *E);
  /// The opening of the client wrapper call that makes a call of \p M
  /// (method \p MD) beginning at \p Begin remote: `::poc_gen::C_client::
  /// key(`, with `_start`/`_future` if a `start` precedes it; notes the use.
  std::string clientWrapper(const clang::CXXMethodDecl *MD, const RemoteMethod &M,
                            clang::SourceLocation Begin);

  RewriteContext &Ctx;
  StartRewriter &Starts;
};

} // namespace pocc

#endif
