//===- TypeNames.h - spelling types and names for generated code -*- C++ -*-=//
#ifndef POCC_TYPENAMES_H
#define POCC_TYPENAMES_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include <string>

namespace pocc {

/// \p T spelled so that it means the same anywhere at global scope:
/// fully qualified with a leading `::` (`::std::vector<::ns::Point>`).
std::string codeSpelling(clang::QualType T, const clang::ASTContext &Ctx);

/// The canonical spelling of \p T used in method signature strings; the same
/// in every translation unit (`std::vector<ns::Point>`).
std::string signatureSpelling(clang::QualType T, const clang::ASTContext &Ctx);

/// The qualified name of a class, with template arguments, as it appears in
/// signature strings and registrations (`ns::Accumulator<double>`).
std::string className(const clang::CXXRecordDecl *RD);

/// A C++ identifier derived from className (`ns_Accumulator_double`), used to
/// name the generated T_interface, T_client and T_server.
std::string classIdentifier(const clang::CXXRecordDecl *RD);

/// A C++ identifier made from \p Text: runs of other characters become `_`.
std::string identifierFrom(llvm::StringRef Text);

/// The canonical signature string of a method or constructor, e.g.
/// `ns::T::f(int,std::basic_string<char>&) const`, whose poc::method_id is
/// the method's id on the wire.
std::string methodSignature(const clang::CXXMethodDecl *MD);

} // namespace pocc

#endif
