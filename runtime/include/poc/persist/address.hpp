//===- poc/persist/address.hpp - Symbolic addresses of persistent objects -===//
//
// A persistent object is named by a symbolic address such as
// `data/set/PageDevice/34` (the paper's §3.3; the `poc://` prefix of the
// paper's form `"poc://data/set/PageDevice/34"` is accepted and dropped).
// Addresses map one to one onto relative paths below the store directory, so
// validation here is what keeps a store operation inside the store: no `..`,
// no absolute paths, no empty components, a small portable character set.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <compare>
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace poc::persist {

/// A validated object address: '/'-separated components, each of
/// [A-Za-z0-9_] followed by [A-Za-z0-9_.-]*, not ending in ".pobj".
/// Instances always hold a valid address; construction validates.
class Address {
public:
  /// Scheme prefix accepted (and removed) by parse().
  static constexpr std::string_view scheme = "poc://";
  /// Longest address in bytes (without scheme).
  static constexpr std::size_t max_length = 1024;
  /// Longest component in bytes; keeps every file name the store derives
  /// from a component (temporaries included) below NAME_MAX = 255.
  static constexpr std::size_t max_component_length = 200;
  /// Most components (directory depth) of one address.
  static constexpr std::size_t max_components = 32;
  /// Suffix of record files; reserved, so no component may end with it.
  static constexpr std::string_view file_suffix = ".pobj";

  /// Validates \p text (optionally prefixed by "poc://").
  /// \throws store_error(invalid_address) naming the rule broken.
  static Address parse(std::string_view text);

  /// Why \p text is not a valid address, or "" if it is one. Does not throw.
  static std::string check(std::string_view text);

  /// The address without scheme, e.g. "data/set/PageDevice/34".
  const std::string &str() const noexcept { return Text; }
  /// The '/'-separated components, viewing into str().
  std::vector<std::string_view> components() const;
  /// The relative file path of the record: str() + file_suffix.
  std::string relative_file() const { return Text + std::string(file_suffix); }

  friend bool operator==(const Address &, const Address &) = default;
  friend auto operator<=>(const Address &, const Address &) = default;

private:
  explicit Address(std::string text) : Text(std::move(text)) {}
  std::string Text;
};

} // namespace poc::persist
