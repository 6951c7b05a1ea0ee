//===- poc/process_id.hpp - Global process identity and arena hooks -------===//
//
// A ProcessId names a process anywhere in the job. Remote references are
// ordinary pointers into the runtime's remote arena (docs/runtime.md, section
// 2); the hooks declared here translate between the two. The serialization
// library calls them when it meets a pointer to a class; the runtime defines
// them (runtime/src/process/arena.cpp).
//
//===----------------------------------------------------------------------===//
#pragma once

#include <compare>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

namespace poc {

/// Globally unique name of a process. The creator chooses the id, so a
/// started creation can hand out a usable reference before the process exists.
struct ProcessId {
  /// Number of the host that runs the process (a rank of the job, or a
  /// spawned host's number, docs/runtime.md section 11); -1 for "no process".
  std::int32_t host = -1;
  /// Number of the host that chose the id (its creator's host; for a
  /// persistent process, the host its address maps to).
  std::int32_t creator = -1;
  /// Per-creator sequence number (a persistent process: its address's
  /// hash with the top bit set).
  std::uint64_t serial = 0;

  friend bool operator==(const ProcessId &, const ProcessId &) = default;
  friend auto operator<=>(const ProcessId &, const ProcessId &) = default;
};

/// True if \p p lies in the remote arena, i.e. is a reference to a process
/// hosted elsewhere (or to one hosted here reached through a reference).
/// Two compares; never dereferences \p p.
bool is_remote(const void *p) noexcept;

/// The process that the remote reference \p p (any address inside its slot)
/// refers to. Precondition: is_remote(p).
ProcessId remote_id(const void *p);

/// If \p p is the address of a local object that is itself a process hosted
/// on this host, its id; otherwise std::nullopt. For a polymorphic class the
/// serializer passes the most-derived object's address.
std::optional<ProcessId> hosted_id(const void *p) noexcept;

/// The interned arena address for \p id: every call with the same id returns
/// the same address. \p min_bytes is the size of the object type the caller
/// will view the reference as (the slot is at least that large).
void *reference_to(const ProcessId &id, std::size_t min_bytes);

namespace detail {
/// \p id as the runtime's messages and traces write it ("1.0.3").
inline std::string id_text(const ProcessId &id) {
  return std::to_string(id.host) + "." + std::to_string(id.creator) + "." +
         std::to_string(id.serial);
}
} // namespace detail

} // namespace poc

template <> struct std::hash<poc::ProcessId> {
  std::size_t operator()(const poc::ProcessId &id) const noexcept {
    // Mix the three fields so ids from different creators with the same
    // serial do not collide (64-bit multiplicative hashing, odd constants).
    std::uint64_t h = static_cast<std::uint32_t>(id.host);
    h = h * 0x9E3779B97F4A7C15ull ^ static_cast<std::uint32_t>(id.creator);
    h = h * 0xC2B2AE3D27D4EB4Full ^ id.serial;
    h ^= h >> 29;
    h *= 0xBF58476D1CE4E5B9ull;
    h ^= h >> 32;
    return static_cast<std::size_t>(h);
  }
};
