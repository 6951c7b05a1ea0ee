//===- ReachesPoc.h - does the user's code use poc++? -----------*- C++ -*-===//
//
// A file that does not compile as plain C++ under the user's flags is
// either poc++'s (process operations, poc++'s API) or plain C++ with an
// error. The parse with poc++'s API tells them apart: the user's code of a
// poc++ file refers to a declaration of poc++'s own headers, such as the
// `operator new` that `new(m) T` resolves to, the marker a started value
// is parsed as, `poc::machine` or `poc::sync`. A `poc` namespace of the
// user's own is not poc++'s.
//
//===----------------------------------------------------------------------===//
#ifndef POCC_REACHESPOC_H
#define POCC_REACHESPOC_H

#include "clang/AST/ASTContext.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <string>
#include <vector>

namespace pocc {

/// True if the declarations \p TopLevel that lie in user files
/// (\p InUserFile) refer to a declaration in a header under \p PocDirs.
bool reachesPoc(clang::ASTContext &C, llvm::ArrayRef<clang::Decl *> TopLevel,
                llvm::function_ref<bool(clang::SourceLocation)> InUserFile,
                llvm::ArrayRef<std::string> PocDirs);

} // namespace pocc

#endif
