//===- EncodedTypes.h - types the program encodes itself --------*- C++ -*-===//
//
// A program (or a library it includes, such as apps/dataflow) may encode
// values with poc::Writer and decode them with poc::Reader itself, not only
// through remote calls. A user class encoded that way needs a Serializer
// just as a parameter does, so poc++ finds every instantiation of
// Writer::write<T> and Reader::read<T> whose T involves a user class and
// generates the Serializers (docs/compiler.md section 6). During poc++'s own
// parse those functions accept types without a Serializer (under
// __POCXX__), because the Serializers are generated after it.
//
//===----------------------------------------------------------------------===//
#ifndef POCC_ENCODEDTYPES_H
#define POCC_ENCODEDTYPES_H

#include "pocc/Diagnostics.h"
#include "pocc/Serializability.h"

#include "clang/AST/ASTContext.h"
#include <functional>

namespace clang {
class Sema;
}

namespace pocc {

/// Records the user classes the program encodes or decodes with
/// poc::Writer/poc::Reader for a generated Serializer, and reports (at the
/// instantiation) those that cannot be sent. \p InUserFile tells the user's
/// declarations from the library's. Instantiates the user's own function
/// templates that the file uses (through \p S), which a prefix parse leaves
/// uninstantiated.
void collectEncodedTypes(clang::ASTContext &C, clang::Sema &S, Serializability &Sendable,
                         Diagnostics &Diags,
                         const std::function<bool(clang::SourceLocation)> &InUserFile);

} // namespace pocc

#endif
