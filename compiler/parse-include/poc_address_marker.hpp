#pragma once
/// \file
/// Seen only by poc++'s own parse, never by the system compiler. The address
/// pre-pass (pocc/Persistence.h) replaces an initialiser `"poc://ADDR"` by
/// `_Pa("ADDR")` (same length), so that the paper's
/// `PageDevice* d = "poc://data/set/PageDevice/34";` parses: the marker's
/// value converts to any pointer. poc++ then writes
/// `::poc::persistent<PageDevice>("data/set/PageDevice/34")` for a class
/// pointer, and the original literal back for anything else.

#include <string>
#include <string_view>

namespace poc::parse {
/// The value of an address literal during the parse.
struct AddressLiteral {
  /// A pointer to a class names the persistent process; `const char*` is
  /// the literal itself.
  template <class T> operator T *() const;
  /// The literal as a string.
  operator std::string() const;
  /// The literal as a string view.
  operator std::string_view() const;
};
} // namespace poc::parse

/// The marker function.
poc::parse::AddressLiteral _Pa(const char *address);
