//===- poc/serialize/array.hpp - std::array and C arrays ------------------===//
//
// A fixed-size array carries no length: both ends know N. Bitwise elements
// are copied as raw bytes, or written as a block (out of band) when the
// array is at least kOutOfBandThreshold bytes; other elements one by one.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "poc/serialize/bitwise.hpp"
#include "poc/serialize/reader.hpp"
#include "poc/serialize/serializer.hpp"
#include "poc/serialize/writer.hpp"

#include <array>
#include <cstddef>

namespace poc {

namespace detail {
/// Encoding shared by std::array<T, N> and T[N].
template <class T, std::size_t N> struct FixedArray {
  static constexpr bool kBitwise = is_bitwise_serializable_v<T>;
  static constexpr bool kBlock = kBitwise && N * sizeof(T) >= kOutOfBandThreshold;
  static constexpr std::size_t min_size =
      kBlock ? 1 : (kBitwise ? N * sizeof(T) : N * min_encoded_size_v<T>);

  static void write(Writer &w, const T *p) {
    if constexpr (kBlock) {
      w.write_block(p, N * sizeof(T));
    } else if constexpr (kBitwise) {
      w.write_bytes(p, N * sizeof(T));
    } else {
      for (std::size_t i = 0; i < N; ++i)
        w.write(p[i]);
    }
  }

  static void read(Reader &r, T *p) {
    if constexpr (kBlock) {
      r.read_block(p, N * sizeof(T));
    } else if constexpr (kBitwise) {
      r.read_bytes(p, N * sizeof(T));
    } else {
      for (std::size_t i = 0; i < N; ++i)
        r.read(p[i]);
    }
  }
};
} // namespace detail

template <class T, std::size_t N>
struct is_bitwise_serializable<std::array<T, N>> : is_bitwise_serializable<T> {
  static_assert(!is_bitwise_serializable<T>::value || sizeof(std::array<T, N>) == N * sizeof(T));
};

template <class T, std::size_t N> struct Serializer<std::array<T, N>> {
  static constexpr std::size_t min_size = detail::FixedArray<T, N>::min_size;
  static void write(Writer &w, const std::array<T, N> &a) {
    detail::FixedArray<T, N>::write(w, a.data());
  }
  static void read(Reader &r, std::array<T, N> &a) { detail::FixedArray<T, N>::read(r, a.data()); }
};

template <class T, std::size_t N> struct Serializer<T[N]> {
  static constexpr std::size_t min_size = detail::FixedArray<T, N>::min_size;
  static void write(Writer &w, const T (&a)[N]) { detail::FixedArray<T, N>::write(w, a); }
  static void read(Reader &r, T (&a)[N]) { detail::FixedArray<T, N>::read(r, a); }
};

} // namespace poc
