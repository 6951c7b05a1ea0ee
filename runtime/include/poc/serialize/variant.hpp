//===- poc/serialize/variant.hpp - std::variant ---------------------------===//
//
// The index of the active alternative as a varint, then that alternative.
// An index beyond the alternatives is malformed; a valueless variant cannot
// be sent.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "poc/serialize/errors.hpp"
#include "poc/serialize/reader.hpp"
#include "poc/serialize/serializer.hpp"
#include "poc/serialize/writer.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <variant>

namespace poc {

template <> struct Serializer<std::monostate> {
  static void write(Writer &, const std::monostate &) {}
  static void read(Reader &, std::monostate &) {}
};

template <class... T> struct Serializer<std::variant<T...>> {
  using Variant = std::variant<T...>;
  static constexpr std::size_t min_size = 1;

  static void write(Writer &w, const Variant &v) {
    if (v.valueless_by_exception())
      throw encode_error("poc: cannot serialize a valueless std::variant");
    w.write_size(v.index());
    std::visit([&w](const auto &alternative) { w.write(alternative); }, v);
  }

  static void read(Reader &r, Variant &v) {
    std::uint64_t index = r.read_varint();
    if (index >= sizeof...(T))
      r.fail("invalid std::variant index " + std::to_string(index) + " (" +
             std::to_string(sizeof...(T)) + " alternatives)");
    read_alternative(r, v, static_cast<std::size_t>(index), std::index_sequence_for<T...>{});
  }

private:
  template <std::size_t I> static void read_one(Reader &r, Variant &v) {
    // Reuse the active alternative (and its capacity) if it is the right one.
    if (v.index() != I)
      v.template emplace<I>();
    r.read(*std::get_if<I>(&v));
  }

  template <std::size_t... I>
  static void read_alternative(Reader &r, Variant &v, std::size_t index,
                               std::index_sequence<I...>) {
    using Fn = void (*)(Reader &, Variant &);
    static constexpr Fn table[] = {&read_one<I>...};
    table[index](r, v);
  }
};

} // namespace poc
