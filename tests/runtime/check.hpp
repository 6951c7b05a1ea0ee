#pragma once
// A minimal checker for the multi-process tests: they run inside poc::run
// (not GoogleTest) because main must run once, on rank 0, under mpirun.

#include <cstdio>
#include <exception>
#include <string>

namespace check {

inline int failures = 0;

/// Records a failure unless \p ok; returns \p ok, so that a test can stop
/// where going on would crash (`if (!CHECK(p)) return;`).
inline bool expect(bool ok, const char *what, const char *file, int line) {
  if (!ok) {
    ++failures;
    std::printf("FAIL %s (%s:%d)\n", what, file, line);
    std::fflush(stdout);
  }
  return ok;
}

/// Runs one named section; an escaping exception is a failure.
template <class F> void section(const char *name, F &&f) {
  int before = failures;
  try {
    f();
  } catch (const std::exception &e) {
    ++failures;
    std::printf("FAIL %s: unexpected exception: %s\n", name, e.what());
  }
  std::printf("%s %s\n", failures == before ? "ok  " : "FAIL", name);
  std::fflush(stdout);
}

/// Expects `f` to throw E whose what() contains `needle`.
template <class E, class F> bool throws(F &&f, const std::string &needle = "") {
  try {
    f();
  } catch (const E &e) {
    if (std::string(e.what()).find(needle) != std::string::npos)
      return true;
    std::printf("  (threw '%s', expected it to contain '%s')\n", e.what(), needle.c_str());
    return false;
  } catch (const std::exception &e) {
    std::printf("  (threw an unexpected exception: %s)\n", e.what());
    return false;
  }
  std::printf("  (did not throw)\n");
  return false;
}

} // namespace check

#define CHECK(cond) ::check::expect((cond), #cond, __FILE__, __LINE__)
