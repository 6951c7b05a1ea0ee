//===- LayoutHash.h - class layout hashes for persistent state --*- C++ -*-===//
//
// A persistent process's record carries the layout hash of its class
// (docs/persistence.md section 6), so that state saved by a program whose
// class had other fields is refused with `layout_mismatch` instead of being
// misread. poc++ describes the layout canonically - the class, its bases and
// fields in the order the generated Serializer writes them, then every user
// class that state reaches - and emits poc::LayoutHash<T> as
// poc::layout_hash of that description, spelled out in the generated code.
//
//===----------------------------------------------------------------------===//
#ifndef POCC_LAYOUTHASH_H
#define POCC_LAYOUTHASH_H

#include "clang/AST/DeclCXX.h"
#include "llvm/ADT/ArrayRef.h"
#include <functional>
#include <string>

namespace pocc {

/// The canonical layout description of \p RD, e.g.
/// `ns::T{:ns::Base;int a;std::vector<ns::P> b;}ns::Base{...}ns::P{...}`.
/// A class that serialises itself (poc_write/poc_read, or a user-written
/// Serializer) is described by name and its `poc_layout_hash` if it declares
/// one (`T{own:1}`), else by its fields marked as its own format
/// (`T{own:int a;...}`): its writer follows its fields.
std::string canonicalLayout(const clang::CXXRecordDecl *RD);

/// The layout descriptions of every user class that values of \p Types
/// carry (through fields, pointers, arrays and template arguments), as
/// canonicalLayout describes them, except process classes (\p
/// IsProcessClass), which travel as references; empty if they carry none.
/// Hashed into the ids of remote methods, so that a program built from
/// other sources cannot misread their arguments (docs/runtime.md 3.1).
std::string reachedLayout(llvm::ArrayRef<clang::QualType> Types,
                          const std::function<bool(const clang::CXXRecordDecl *)> &IsProcessClass);

/// \p Text escaped for the inside of a C++ string literal.
std::string stringLiteralBody(llvm::StringRef Text);

/// True for a class that serialises itself without declaring
/// `poc_layout_hash`: poc++ generates its LayoutHash from its fields.
bool needsGeneratedLayoutHash(const clang::CXXRecordDecl *RD);

/// The poc::LayoutHash specialisation of \p RD (which has a generated
/// Serializer, or needsGeneratedLayoutHash).
std::string emitLayoutHash(const clang::CXXRecordDecl *RD);

} // namespace pocc

#endif
