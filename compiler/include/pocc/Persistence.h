//===- Persistence.h - persistent processes in the language -----*- C++ -*-===//
//
// A program reaches persistent processes (docs/persistence.md) in three
// ways poc++ understands:
//   * `new(poc::persistent_at(m, "data/x")) T(args)` creates one; poc++
//     rewrites it to poc::make_persistent<T> with the constructor's id;
//   * `T* p = "poc://data/x";` (the paper's form, section 3.3) names one;
//     the pre-pass in this file makes the literal parse, and poc++ rewrites
//     it to poc::persistent<T>("data/x");
//   * `poc::persistent<T>(...)` and `poc::make_persistent<T>(...)` (from
//     <poc/gen/create.hpp>) written by hand.
// Each makes T remotable (the program must serve it) and requires its state
// to be savable, which poc++ checks at the use with a diagnostic.
//
//===----------------------------------------------------------------------===//
#ifndef POCC_PERSISTENCE_H
#define POCC_PERSISTENCE_H

#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/StringRef.h"
#include <string>

namespace clang {
class LangOptions;
}

namespace pocc {

/// The name of the parse-only function an address literal becomes.
inline constexpr llvm::StringLiteral AddressMarker = "_Pa";

/// Rewrites every `"poc://ADDR"` string literal that is a whole initialiser
/// or assigned value (after `=` or `return`, before `;`, `,` or `)`) into
/// `_Pa("ADDR")` padded with spaces to the same length, so every location in
/// the file stays the user's. Returns an empty string if there is none.
std::string markAddressLiterals(llvm::StringRef Source, const clang::LangOptions &LangOpts);

/// True if \p E is `new(poc::persistent_at(...)) T...`.
bool isPersistentNew(const clang::CXXNewExpr *E);

/// True if \p E is a call of the address-literal marker.
bool isAddressLiteral(const clang::CallExpr *E);

/// The class of the persistent process \p E names or creates: for a call of
/// poc::persistent<T> or poc::make_persistent<T>, for the conversion of an
/// address literal to T*, and for a persistent new of T. Null otherwise.
const clang::CXXRecordDecl *persistentClass(const clang::Expr *E);

} // namespace pocc

#endif
