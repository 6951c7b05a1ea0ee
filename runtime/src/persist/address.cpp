//===- persist/address.cpp - Symbolic addresses of persistent objects -----===//
#include "poc/persist/address.hpp"

#include "poc/persist/error.hpp"

#include <string>

namespace poc::persist {

namespace {

bool is_lead_char(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
}

bool is_char(char c) { return is_lead_char(c) || c == '.' || c == '-'; }

std::string_view strip_scheme(std::string_view text) {
  if (text.substr(0, Address::scheme.size()) == Address::scheme)
    text.remove_prefix(Address::scheme.size());
  return text;
}

/// Printable form of a byte for error messages.
std::string describe(char c) {
  unsigned char u = static_cast<unsigned char>(c);
  if (u >= 0x21 && u < 0x7f)
    return std::string("'") + c + "'";
  static const char hex[] = "0123456789abcdef";
  return std::string("byte 0x") + hex[u >> 4] + hex[u & 15];
}

std::string check_component(std::string_view comp, std::size_t index) {
  std::string where = "component " + std::to_string(index + 1);
  if (comp.empty())
    return where + " is empty (leading, trailing or doubled '/')";
  if (comp == "." || comp == "..")
    return where + " is '" + std::string(comp) + "'; relative path steps are not allowed";
  if (comp.size() > Address::max_component_length)
    return where + " is " + std::to_string(comp.size()) + " bytes long; the limit is " +
           std::to_string(Address::max_component_length);
  if (!is_lead_char(comp.front()))
    return where + " starts with " + describe(comp.front()) +
           "; a component starts with a letter, digit or '_'";
  for (char c : comp)
    if (!is_char(c))
      return where + " contains " + describe(c) + "; allowed are letters, digits, '_', '-' and '.'";
  if (comp.size() >= Address::file_suffix.size() &&
      comp.substr(comp.size() - Address::file_suffix.size()) == Address::file_suffix)
    return where + " ends with the reserved suffix '" + std::string(Address::file_suffix) + "'";
  return {};
}

} // namespace

std::string Address::check(std::string_view text) {
  text = strip_scheme(text);
  if (text.empty())
    return "the address is empty";
  if (text.front() == '/')
    return "absolute addresses are not allowed (leading '/')";
  if (text.size() > max_length)
    return "the address is " + std::to_string(text.size()) + " bytes long; the limit is " +
           std::to_string(max_length);
  std::size_t index = 0;
  std::size_t start = 0;
  while (true) {
    std::size_t slash = text.find('/', start);
    std::string_view comp =
        text.substr(start, slash == std::string_view::npos ? slash : slash - start);
    if (std::string why = check_component(comp, index); !why.empty())
      return why;
    if (++index > max_components)
      return "the address has more than " + std::to_string(max_components) + " components";
    if (slash == std::string_view::npos)
      return {};
    start = slash + 1;
  }
}

Address Address::parse(std::string_view text) {
  if (std::string why = check(text); !why.empty()) {
    // The rejected text may hold control bytes; show it escaped.
    std::string shown;
    for (char c : text.substr(0, max_length + 16))
      shown +=
          (static_cast<unsigned char>(c) >= 0x20 && c != 0x7f) ? std::string(1, c) : describe(c);
    throw store_error(store_errc::invalid_address, shown, "invalid address: " + why);
  }
  return Address(std::string(strip_scheme(text)));
}

std::vector<std::string_view> Address::components() const {
  std::vector<std::string_view> out;
  std::string_view rest = Text;
  while (true) {
    std::size_t slash = rest.find('/');
    out.push_back(rest.substr(0, slash));
    if (slash == std::string_view::npos)
      return out;
    rest.remove_prefix(slash + 1);
  }
}

} // namespace poc::persist
