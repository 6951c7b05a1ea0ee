//===- poc/serialize/string.hpp - Strings ---------------------------------===//
//
// A string is one block (Writer::write_block) of its characters: a varint
// header holding the byte length, then the bytes. Text is not re-encoded;
// UTF-8 travels as it is. A string of 64 KiB or more travels out of band.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "poc/serialize/bitwise.hpp"
#include "poc/serialize/reader.hpp"
#include "poc/serialize/serializer.hpp"
#include "poc/serialize/writer.hpp"

#include <cstddef>
#include <limits>
#include <span>
#include <string>
#include <string_view>

namespace poc {

namespace detail {
template <class C> void write_chars(Writer &w, const C *data, std::size_t n) {
  static_assert(is_bitwise_serializable_v<C>, "unsupported character type");
  w.write_block(data, n * sizeof(C));
}
} // namespace detail

template <class C, class Traits, class Alloc>
struct Serializer<std::basic_string<C, Traits, Alloc>> {
  static constexpr std::size_t min_size = 1;

  static void write(Writer &w, const std::basic_string<C, Traits, Alloc> &s) {
    detail::write_chars(w, s.data(), s.size());
  }

  static void read(Reader &r, std::basic_string<C, Traits, Alloc> &s) {
    Reader::BlockHeader h = r.read_block_header(std::numeric_limits<std::size_t>::max());
    if constexpr (sizeof(C) == 1) {
      if (!h.out_of_band) {
        // Copy straight from the message: one allocation, no zero-fill.
        std::span<const std::byte> chars = r.read_view(h.size);
        const C *text = reinterpret_cast<const C *>(chars.data());
        if (h.size <= s.capacity())
          s.assign(text, h.size); // reuses the string's memory
        else
          s = std::basic_string<C, Traits, Alloc>(text, h.size, s.get_allocator());
        return;
      }
    } else if (h.size % sizeof(C) != 0) {
      r.fail("string length is not a multiple of the character size");
    }
    s.resize(h.size / sizeof(C));
    r.read_block_payload(h, s.data());
  }
};

/// A string_view is written like a std::string (so the receiver reads a
/// std::string) but cannot be read: it would have to point into the message
/// buffer, which is gone once the message has been handled.
template <class C, class Traits> struct Serializer<std::basic_string_view<C, Traits>> {
  static constexpr std::size_t min_size = 1;

  static void write(Writer &w, const std::basic_string_view<C, Traits> &s) {
    detail::write_chars(w, s.data(), s.size());
  }

  template <class V = void> static void read(Reader &, std::basic_string_view<C, Traits> &) {
    static_assert(detail::dependent_false<V>,
                  "a std::string_view cannot be deserialized: it owns no storage. "
                  "Receive a std::string (same wire format) instead");
  }
};

} // namespace poc
