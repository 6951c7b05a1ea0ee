//===- dataflow/type_name.hpp - Type names as a program spells them ------===//
///
/// \file
/// A demangled type name spells out every default template argument and the
/// standard library's inline namespaces: a `std::map<std::string, long>` is
/// about 300 characters. `short_type_name` writes it as the program does,
/// for pictures of a graph (`--dot`).
///
//===----------------------------------------------------------------------===//
#pragma once

#include <string>
#include <string_view>

namespace dataflow {

/// `demangled` (as `abi::__cxa_demangle` writes a type) as a program would
/// spell it: the standard library's inline namespaces (`std::__cxx11::`,
/// `std::__1::`) left out, a standard template's trailing arguments left
/// out where they are the defaults (allocators, comparators, hashes,
/// character traits, deleters, adapted containers), `std::basic_string<char>`
/// written `std::string` (likewise `std::wstring`, `std::u8string`,
/// `std::u16string`, `std::u32string` and the `string_view`s), and `>>`
/// without a space. A name it cannot read (unbalanced brackets) comes back
/// unchanged.
std::string short_type_name(std::string_view demangled);

} // namespace dataflow
