//===- tests/persist/crash_workload.hpp - The crash test's workload -------===//
//
// A deterministic sequence of states per object, shared by the worker (which
// saves them) and the driver (which checks what survived a kill -9). Every
// state is self-describing and varies in size, so a torn or mixed record
// can never pass for a valid one.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

namespace poc::persist::crashtest {

/// Class name and layout hash the worker saves objects with.
inline constexpr const char *ClassName = "crashtest::Counter";
inline constexpr std::uint64_t LayoutHash = 0x5eed'c0ff'ee00'0001ull;

/// Address of object \p i of writer \p w.
inline std::string address_of(int w, int i) {
  return "crash/writer" + std::to_string(w) + "/obj" + std::to_string(i);
}

/// The value chain of object (w, i): value(0) is a seed, value(k+1) mixes
/// value(k) with k (splitmix64 finaliser).
inline std::uint64_t value(int w, int i, std::uint32_t k) {
  std::uint64_t v = 0x9e3779b97f4a7c15ull * static_cast<std::uint64_t>(w * 1000 + i + 1);
  for (std::uint32_t s = 0; s < k; ++s) {
    v += s + 0x9e3779b97f4a7c15ull;
    v = (v ^ (v >> 30)) * 0xbf58476d1ce4e5b9ull;
    v = (v ^ (v >> 27)) * 0x94d049bb133111ebull;
    v ^= v >> 31;
  }
  return v;
}

/// Serialized state of object (w, i) after step k: w, i, k, value, then a
/// filler of 0..96 KiB derived from the value (large states make kills
/// during a write likely).
inline std::vector<std::byte> state(int w, int i, std::uint32_t k) {
  std::uint64_t v = value(w, i, k);
  std::size_t filler = (v >> 7) % (96 * 1024);
  std::vector<std::byte> out(20 + filler);
  std::uint32_t head[3] = {static_cast<std::uint32_t>(w), static_cast<std::uint32_t>(i), k};
  std::memcpy(out.data(), head, 12);
  std::memcpy(out.data() + 12, &v, 8);
  for (std::size_t j = 0; j < filler; ++j)
    out[20 + j] = static_cast<std::byte>((v >> ((j % 8) * 8)) + j);
  return out;
}

/// The step a payload claims to be at, if it is exactly state(w, i, step).
inline std::optional<std::uint32_t> step_of(int w, int i, const std::vector<std::byte> &payload) {
  if (payload.size() < 20)
    return std::nullopt;
  std::uint32_t head[3];
  std::memcpy(head, payload.data(), 12);
  if (head[0] != static_cast<std::uint32_t>(w) || head[1] != static_cast<std::uint32_t>(i))
    return std::nullopt;
  if (payload != state(w, i, head[2]))
    return std::nullopt;
  return head[2];
}

/// The workload's result: XOR of every object's final value.
inline std::uint64_t expected_result(int w, int objects, std::uint32_t steps) {
  std::uint64_t r = 0;
  for (int i = 0; i < objects; ++i)
    r ^= value(w, i, steps);
  return r;
}

} // namespace poc::persist::crashtest
