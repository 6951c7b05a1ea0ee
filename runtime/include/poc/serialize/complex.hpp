//===- poc/serialize/complex.hpp - std::complex ---------------------------===//
//
// The real part, then the imaginary part. std::complex<T> has the layout of
// T[2], so it is bitwise serializable when T is, and vectors of complex
// numbers travel as one block.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "poc/serialize/bitwise.hpp"
#include "poc/serialize/reader.hpp"
#include "poc/serialize/serializer.hpp"
#include "poc/serialize/writer.hpp"

#include <complex>
#include <cstddef>

namespace poc {

template <class T> struct is_bitwise_serializable<std::complex<T>> : is_bitwise_serializable<T> {};

template <class T> struct Serializer<std::complex<T>> {
  static constexpr std::size_t min_size = 2 * min_encoded_size_v<T>;
  static void write(Writer &w, const std::complex<T> &c) {
    w.write(c.real());
    w.write(c.imag());
  }
  static void read(Reader &r, std::complex<T> &c) {
    T re;
    T im;
    r.read(re);
    r.read(im);
    c = std::complex<T>(re, im);
  }
};

} // namespace poc
