// A library header that a test includes through -isystem: poc++'s parse
// skips the bodies of its functions, except those Clang needs to go on.
#pragma once

namespace library {
/// Evaluated in the user's constant expressions: its body is kept.
constexpr int cells(int rows, int cols) { return rows * cols; }
/// Its return type is deduced from its body, which is therefore kept.
inline auto half(long x) { return x / 2.0; }
/// An ordinary function: its body is skipped by poc++ and compiled by the
/// system compiler.
inline int twice(int x) { return 2 * x; }
/// A template whose instantiation the user's code needs at once.
template <class T> constexpr T largest(T a, T b) { return a < b ? b : a; }
} // namespace library
