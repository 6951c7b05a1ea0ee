//===- tests/persist/temp_dir.hpp - Scratch directories for store tests ---===//
#pragma once

#include <cstdlib>
#include <filesystem>
#include <stdexcept>
#include <string>

namespace poc::persist::testing {

/// A fresh directory under $TMPDIR (or /tmp), removed with its contents on
/// destruction, so tests never share or leave behind a store.
class TempDir {
public:
  TempDir() {
    const char *base = std::getenv("TMPDIR");
    std::string pattern = std::string(base && *base ? base : "/tmp") + "/poc-persist-test-XXXXXX";
    if (!::mkdtemp(pattern.data()))
      throw std::runtime_error("mkdtemp failed for " + pattern);
    Path = pattern;
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(Path, ec);
  }
  TempDir(const TempDir &) = delete;
  TempDir &operator=(const TempDir &) = delete;

  const std::filesystem::path &path() const { return Path; }

private:
  std::filesystem::path Path;
};

} // namespace poc::persist::testing
