/// \file
/// The start-up of a program whose `main` is in a file poc++ compiled as
/// plain C++ (it uses no process operation, while other files do). poc++'s
/// link then passes `-Wl,--wrap=main`: the C library's call of `main`
/// reaches __wrap_main, which runs the program's own `main` (__real_main)
/// under the runtime, as the `main` poc++ generates for a translated file
/// does (docs/compiler.md section 8, "Separate compilation"). Nothing else refers to this file, so
/// a program whose `main` was translated never links it.
#include <poc/run.hpp>

// The linker's names for a wrapped symbol (GNU ld and lld: --wrap).
// NOLINTBEGIN(bugprone-reserved-identifier,readability-identifier-naming)
extern "C" int __real_main(int argc, char **argv);

extern "C" int __wrap_main(int argc, char **argv) {
  return poc::run(argc, argv, [](int c, char **v) { return __real_main(c, v); });
}
// NOLINTEND(bugprone-reserved-identifier,readability-identifier-naming)
