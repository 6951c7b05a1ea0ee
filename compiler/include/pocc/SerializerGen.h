//===- SerializerGen.h - poc::Serializer for user classes -------*- C++ -*-===//
//
// Classes sent by value (or through a pointer, as a deep copy) get a
// generated `poc::Serializer<T>` specialisation that writes the base classes
// first, then every field in declaration order, private fields included.
// Private fields are reached through the standard explicit-instantiation
// access technique (an explicit instantiation may name private members), so
// user classes are never edited and classes in headers work too.
// A pointer field annotated POC_COUNT(n), with n an earlier field of the same
// class, is sent as n elements; the object owns that array (new[] and
// delete[]), so receiving into an object replaces the array it held.
// Classes with poc_write/poc_read members or a user-written Serializer
// specialisation get none.
//
//===----------------------------------------------------------------------===//
#ifndef POCC_SERIALIZERGEN_H
#define POCC_SERIALIZERGEN_H

#include "clang/AST/DeclCXX.h"
#include <string>

namespace pocc {

/// Helpers every generated file with private-field access needs once.
std::string emitFieldAccessPrelude();

/// The Serializer specialisation of \p RD (and its private-field accessors).
std::string emitSerializer(const clang::CXXRecordDecl *RD);

} // namespace pocc

#endif
