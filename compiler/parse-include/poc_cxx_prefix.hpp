/// \file
/// What the system compiler's precompiled poc/gen/runtime.hpp.gch is made
/// from (compiling <poc/gen/runtime.hpp> itself as the main file would warn
/// about its #pragma once).
#include <poc/gen/runtime.hpp>
