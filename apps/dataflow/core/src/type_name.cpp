//===- type_name.cpp - Type names as a program spells them ---------------===//
#include <dataflow/type_name.hpp>

#include <cctype>
#include <map>
#include <optional>
#include <vector>

namespace dataflow {

namespace {

/// The standard library's inline namespaces, which programs do not write.
constexpr std::string_view inline_namespaces[] = {"std::__cxx11::", "std::__1::"};

/// Each standard template whose trailing arguments have defaults: what
/// each argument defaults to, `$0` and `$1` standing for the first two
/// arguments (empty: no default). Spelled as short_type_name writes them,
/// so that they compare equal to arguments already shortened.
const std::map<std::string_view, std::vector<std::string_view>> standard_defaults = {
    {"std::vector", {"", "std::allocator<$0>"}},
    {"std::deque", {"", "std::allocator<$0>"}},
    {"std::list", {"", "std::allocator<$0>"}},
    {"std::forward_list", {"", "std::allocator<$0>"}},
    {"std::set", {"", "std::less<$0>", "std::allocator<$0>"}},
    {"std::multiset", {"", "std::less<$0>", "std::allocator<$0>"}},
    {"std::map", {"", "", "std::less<$0>", "std::allocator<std::pair<$0 const, $1>>"}},
    {"std::multimap", {"", "", "std::less<$0>", "std::allocator<std::pair<$0 const, $1>>"}},
    {"std::unordered_set", {"", "std::hash<$0>", "std::equal_to<$0>", "std::allocator<$0>"}},
    {"std::unordered_multiset", {"", "std::hash<$0>", "std::equal_to<$0>", "std::allocator<$0>"}},
    {"std::unordered_map",
     {"", "", "std::hash<$0>", "std::equal_to<$0>", "std::allocator<std::pair<$0 const, $1>>"}},
    {"std::unordered_multimap",
     {"", "", "std::hash<$0>", "std::equal_to<$0>", "std::allocator<std::pair<$0 const, $1>>"}},
    {"std::stack", {"", "std::deque<$0>"}},
    {"std::queue", {"", "std::deque<$0>"}},
    {"std::priority_queue", {"", "std::vector<$0>", "std::less<$0>"}},
    {"std::unique_ptr", {"", "std::default_delete<$0>"}},
    {"std::basic_string", {"", "std::char_traits<$0>", "std::allocator<$0>"}},
    {"std::basic_string_view", {"", "std::char_traits<$0>"}},
};

/// `pattern` from standard_defaults with `$0` and `$1` replaced by
/// `args[0]` and `args[1]`.
std::string instantiate(std::string_view pattern, const std::vector<std::string> &args) {
  std::string out;
  for (std::size_t i = 0; i < pattern.size(); ++i) {
    if (pattern[i] == '$' && i + 1 < pattern.size()) {
      out += args.at(static_cast<std::size_t>(pattern[++i] - '0'));
      continue;
    }
    out += pattern[i];
  }
  return out;
}

/// `name<args>` as a program writes it: the defaulted trailing arguments
/// of a standard template left out, a basic_string(_view) of a character
/// type by its alias.
std::string template_id(const std::string &name, std::vector<std::string> args) {
  if (const auto defaults = standard_defaults.find(name); defaults != standard_defaults.end())
    while (args.size() > 1 && args.size() <= defaults->second.size() &&
           !defaults->second[args.size() - 1].empty() &&
           args.back() == instantiate(defaults->second[args.size() - 1], args))
      args.pop_back();
  if ((name == "std::basic_string" || name == "std::basic_string_view") && args.size() == 1) {
    static constexpr std::pair<std::string_view, std::string_view> prefixes[] = {
        {"char", ""},
        {"wchar_t", "w"},
        {"char8_t", "u8"},
        {"char16_t", "u16"},
        {"char32_t", "u32"}};
    for (const auto &[character, prefix] : prefixes)
      if (args[0] == character)
        return "std::" + std::string(prefix) + name.substr(std::string_view("std::basic_").size());
  }
  std::string out = name + "<";
  for (std::size_t i = 0; i < args.size(); ++i)
    out += (i ? ", " : "") + args[i];
  return out + ">";
}

std::string trimmed(const std::string &text) {
  const std::size_t first = text.find_first_not_of(' ');
  return first == std::string::npos ? ""
                                    : text.substr(first, text.find_last_not_of(' ') - first + 1);
}

/// Where the qualified identifier that ends `text` begins: the name of the
/// template whose argument list follows.
std::size_t template_name_start(const std::string &text) {
  std::size_t start = text.size();
  while (start > 0 && (std::isalnum(static_cast<unsigned char>(text[start - 1])) ||
                       text[start - 1] == '_' || text[start - 1] == ':'))
    --start;
  return start;
}

/// Reads a demangled name from left to right, writing each template-id in
/// it shortened (template_id), innermost first.
class NameReader {
public:
  explicit NameReader(std::string_view text) : text_(text) {}

  /// The whole name shortened; nullopt if its brackets do not balance.
  std::optional<std::string> name() {
    std::optional<std::string> out = part();
    if (!out || pos_ != text_.size())
      return std::nullopt;
    return out;
  }

private:
  /// The text up to a `,` or `>` outside brackets and parentheses (one
  /// template argument), or to the end.
  std::optional<std::string> part() {
    std::string out;
    int nesting = 0; // open parentheses, braces and square brackets
    while (pos_ < text_.size()) {
      const char c = text_[pos_];
      if (nesting == 0 && (c == ',' || c == '>'))
        break;
      ++pos_;
      if (c == '<') {
        std::optional<std::vector<std::string>> args = arguments();
        if (!args)
          return std::nullopt;
        const std::size_t start = template_name_start(out);
        out = out.substr(0, start) + template_id(out.substr(start), std::move(*args));
        continue;
      }
      if (c == '(' || c == '{' || c == '[')
        ++nesting;
      else if ((c == ')' || c == '}' || c == ']') && nesting-- == 0)
        return std::nullopt;
      out += c;
    }
    return out;
  }

  /// The arguments of the list whose `<` was just read, through its `>`.
  std::optional<std::vector<std::string>> arguments() {
    std::vector<std::string> args;
    if (pos_ < text_.size() && text_[pos_] == '>') {
      ++pos_;
      return args;
    }
    for (;;) {
      std::optional<std::string> arg = part();
      if (!arg || pos_ == text_.size())
        return std::nullopt;
      args.push_back(trimmed(*arg));
      if (text_[pos_++] == '>')
        return args;
    }
  }

  std::string_view text_;
  std::size_t pos_ = 0;
};

} // namespace

std::string short_type_name(std::string_view demangled) {
  std::string name(demangled);
  for (const std::string_view space : inline_namespaces)
    for (std::size_t at = name.find(space); at != std::string::npos; at = name.find(space, at))
      name.replace(at, space.size(), "std::");
  return NameReader(name).name().value_or(std::string(demangled));
}

} // namespace dataflow
