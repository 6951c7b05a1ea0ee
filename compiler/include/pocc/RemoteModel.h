//===- RemoteModel.h - which values may refer to other processes -*- C++ -*-=//
//
// Remote references are ordinary pointers, so poc++ must work out which
// expressions to rewrite:
//  * class pointers: a class is *remotable* if the program creates it (or a
//    class derived from it) with `new(machine)`, if it reaches it as a
//    persistent process (pocc/Persistence.h), if it derives from
//    poc::ProcessGroupMember, or if it is annotated POC_REMOTE. Every call
//    through a pointer to a remotable class is rewritten into a call of a
//    generated wrapper that tests at run time whether the object is remote.
//  * scalar pointers (remote arrays): a flow analysis from `new(m) E[n]`
//    sites through initialisations, assignments, arguments to parameters,
//    returns and fields, seeded also with every pointer-to-scalar parameter
//    and field of a remotable class (such values arrive over the wire).
//    Only subscripts and dereferences of may-remote pointers are rewritten.
//
//===----------------------------------------------------------------------===//
#ifndef POCC_REMOTEMODEL_H
#define POCC_REMOTEMODEL_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include <set>
#include <string>
#include <vector>

namespace pocc {

/// True if \p E is `new(m) T...` with a machine placement argument, i.e. a
/// process or remote array creation rather than an ordinary placement new.
bool isRemoteNew(const clang::CXXNewExpr *E);

/// True for `new (m) T(args)` in a template, where `T` is a template type
/// parameter: Sema resolves no operator new until instantiation, so the
/// machine is recognised by the placement argument's type.
bool isDependentRemoteNew(const clang::CXXNewExpr *E);

/// The classes a dependent remote creation \p E creates: the arguments for
/// its `T` of every specialisation of the enclosing function template or
/// class template that this file names (`make<Counter>("m")`).
std::vector<const clang::CXXRecordDecl *> dependentCreationClasses(const clang::CXXNewExpr *E,
                                                                   clang::ASTContext &Ctx);

/// True if \p RD derives (directly or not) from poc::ProcessGroupMember.
bool isProcessGroupMember(const clang::CXXRecordDecl *RD);

/// True if \p FD, or any declaration of it, is marked POC_NONBLOCKING
/// (<poc/annotations.hpp>): its remote calls may run on the thread that
/// receives them, so its body must not wait.
bool isNonblocking(const clang::FunctionDecl *FD);

/// True if \p T is a pointer to non-class, non-function, non-void data.
bool isScalarPointer(clang::QualType T);

/// Names (className) of the classes the declarations \p TopLevel (the
/// file's own top-level declarations) create remotely, with all their
/// bases: the first pass over a multi-file program.
std::set<std::string> collectRemotableNames(clang::ASTContext &Ctx,
                                            llvm::ArrayRef<clang::Decl *> TopLevel);

class RemoteModel;

/// The remotable classes the declarations \p TopLevel define (or
/// instantiate), outside system headers: the classes generated servers
/// serve.
std::vector<const clang::CXXRecordDecl *>
definedRemotableClasses(const RemoteModel &Model, const clang::SourceManager &SM,
                        llvm::ArrayRef<clang::Decl *> TopLevel);

/// The may-remote analysis of one translation unit.
class RemoteModel {
public:
  /// \p ProgramRemotable: remotable class names from every input file;
  /// \p TopLevel: the file's own top-level declarations (those of a
  /// precompiled header are library code and not analysed).
  RemoteModel(clang::ASTContext &Ctx, const std::set<std::string> &ProgramRemotable,
              llvm::ArrayRef<clang::Decl *> TopLevel);

  /// True if calls through a pointer to \p RD must be rewritten.
  bool isRemotable(const clang::CXXRecordDecl *RD) const;

  /// True if \p E (a pointer to scalar data) may hold a remote array.
  bool mayBeRemoteArray(const clang::Expr *E) const;

private:
  void addRemotable(const clang::CXXRecordDecl *RD);
  void collect(llvm::ArrayRef<clang::Decl *> TopLevel);
  void propagate(llvm::ArrayRef<clang::Decl *> TopLevel);

  clang::ASTContext &Ctx;
  std::set<std::string> RemotableNames;
  /// Flow edges of scalar pointers: value flows from key into each element.
  llvm::DenseMap<const clang::Decl *, std::vector<const clang::Decl *>> Flow;
  llvm::SmallPtrSet<const clang::Decl *, 16> Seeds;
  llvm::SmallPtrSet<const clang::Decl *, 32> MayRemote;

  friend class FlowCollector;
};

/// The declaration the flow analysis uses for \p D: the first declaration,
/// and for parameters the parameter of the first declaration.
const clang::Decl *canonicalDecl(const clang::Decl *D);

/// The declarations an expression's pointer value may come from: variables,
/// parameters, fields and functions (their results). Sets \p FromRemoteNew
/// if the value is made by a remote array creation.
void pointerSources(const clang::Expr *E, llvm::SmallVectorImpl<const clang::Decl *> &Out,
                    bool &FromRemoteNew);

} // namespace pocc

#endif
