//===- ClassCalls.h - the classes a file calls methods of -------*- C++ -*-===//
//
// For the link's check of separately compiled files (pocc/ObjectRecord.h):
// every class whose methods a file calls through a pointer or a reference,
// which the link compares with the classes the program creates as
// processes.
//
//===----------------------------------------------------------------------===//
#ifndef POCC_CLASSCALLS_H
#define POCC_CLASSCALLS_H

#include "pocc/ObjectRecord.h"

#include "clang/AST/ASTContext.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <vector>

namespace pocc {

/// The first call, in \p TopLevel (with the instantiations of templates),
/// of each class's methods through a pointer or a reference: `p->f()`,
/// `r.f()`, `(*p)(x)`, `(*p)[i]` and `delete p`. Calls on `this`, on
/// objects held by value and of static methods cannot reach a process and
/// are left out, as are classes and code for which \p InUserFile is false
/// (system headers). \p Rewritten tells whether a class's calls were
/// rewritten (null: none were).
std::vector<ClassCall>
recordClassCalls(clang::ASTContext &Ctx, llvm::ArrayRef<clang::Decl *> TopLevel,
                 llvm::function_ref<bool(clang::SourceLocation)> InUserFile,
                 llvm::function_ref<bool(const clang::CXXRecordDecl *)> Rewritten = nullptr);

} // namespace pocc

#endif
