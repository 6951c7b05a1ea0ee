//===- FormatCode.h - the layout of generated code --------------*- C++ -*-===//
#ifndef POCC_FORMATCODE_H
#define POCC_FORMATCODE_H

#include "llvm/ADT/StringRef.h"

#include <string>

namespace pocc {

/// Formats generated C++ in clang-format's LLVM style, except that lines are
/// never wrapped: every declaration, case and method id stays on one line,
/// so that a one-line FileCheck pattern matches it (docs/compiler.md,
/// section 9).
std::string formatCode(llvm::StringRef Code);

} // namespace pocc

#endif
