/// \file
/// What the system compiler's precompiled poc/poc.hpp.gch is made from
/// (compiling <poc/poc.hpp> itself as the main file would warn about its
/// #pragma once).
#include <poc/poc.hpp>
