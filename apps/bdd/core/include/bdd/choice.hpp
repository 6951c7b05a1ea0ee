//===- bdd/choice.hpp - Command-line words that name a choice ------*- C++ -*-===//
#pragma once

#include <initializer_list>
#include <stdexcept>
#include <string>
#include <utility>

namespace bdd {

/// The value `text` names among `choices`; otherwise std::invalid_argument
/// "OPTION needs a, b or c, got 'text'".
template <class T>
T parse_choice(const std::string &option, const std::string &text,
               std::initializer_list<std::pair<const char *, T>> choices) {
  std::string names;
  std::size_t i = 0;
  for (const auto &[name, value] : choices) {
    if (text == name)
      return value;
    if (i > 0)
      names += i + 1 == choices.size() ? " or " : ", ";
    names += name;
    ++i;
  }
  throw std::invalid_argument(option + " needs " + names + ", got '" + text + "'");
}

} // namespace bdd
