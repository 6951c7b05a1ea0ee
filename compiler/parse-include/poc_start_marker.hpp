#pragma once
/// \file
/// Seen only by poc++'s own parse, never by the system compiler. The `start`
/// pre-pass replaces a `start` after `=` by `_Pst^` (same length), so that
/// `auto f = start p->g(x);` declares a poc::future during the parse, as it
/// does after translation; poc++ removes the marker from its output.

#include <poc/future.hpp>
#include <type_traits>

namespace poc::parse {
/// The type of the marker.
struct StartMarker {};
} // namespace poc::parse

/// The marker object.
inline constexpr poc::parse::StartMarker _Pst{};

/// `_Pst ^ expr` has the type of a started `expr`: a future of its value.
template <class T> poc::future<std::decay_t<T>> operator^(poc::parse::StartMarker, T &&);
