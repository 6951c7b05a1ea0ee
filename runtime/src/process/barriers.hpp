#pragma once
/// \file
/// The barriers of process groups on one host (docs/runtime.md section 6):
/// as a group's coordinator it counts the arrivals of the group's members
/// and releases them, or fails the barrier when a member abandons it; as a
/// member's host it lets its waiting members pass. Guarded by the engine's
/// mutex.

#include "transport/engine.hpp"

#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <utility>

namespace poc::detail {

class Barriers {
public:
  explicit Barriers(Engine &engine);

  /// Tells the coordinator host of `group` that a member (of `members`)
  /// reached barrier `epoch`.
  void arrive(int coordinator, std::uint64_t group, std::uint64_t epoch, std::uint64_t members);
  /// Waits (with `lk`) until barrier `epoch` of `group` is released here.
  /// Throws barrier_abandoned if it was abandoned, usage_error if `ending`
  /// becomes true first (the program ended).
  void wait(HostLock &lk, std::uint64_t group, std::uint64_t epoch, const bool &ending);
  /// Tells the coordinator host of `group` that a member will not reach
  /// barrier `epoch` (nor later ones); `text` is the error waiting members get.
  void abandon(int coordinator, std::uint64_t group, std::uint64_t epoch, const std::string &text);

  /// True for the kinds of message route handles.
  static constexpr bool handles(Kind k) noexcept {
    return k == Kind::barrier_arrive || k == Kind::barrier_release || k == Kind::barrier_abandon;
  }
  /// Handles a message of one of those kinds.
  void route(const Message &m, HostLock &lk);

private:
  using Key = std::pair<std::uint64_t, std::uint64_t>; ///< (group, epoch)

  void on_arrive(int source, const BarrierArrive &a, HostLock &lk);
  /// Coordinator: fails the pending barriers of `group` from `epoch` on.
  void fail(std::uint64_t group, std::uint64_t epoch, const std::string &text, HostLock &lk);
  void release(int dest, const Key &key, std::uint64_t passes, const std::string *failure,
               HostLock &lk);

  Engine &engine_;
  /// Coordinator: arrivals per barrier, and per member host.
  struct Arrivals {
    std::uint64_t count = 0;
    std::uint64_t size = 0;
    std::map<int, std::uint64_t> per_host;
  };
  std::map<Key, Arrivals> arrivals_;
  /// Coordinator: groups a member abandoned, group -> the first barrier
  /// epoch that cannot complete and the error for it. Kept for the job's
  /// lifetime: a later arrival at that barrier fails at once.
  struct Abandoned {
    std::uint64_t epoch = 0;
    std::string text;
  };
  std::map<std::uint64_t, Abandoned> abandoned_;
  /// Member host: releases received, -> members still to pass.
  std::map<Key, std::uint64_t> released_;
  /// Member host: failed releases received, -> members still to fail, error.
  std::map<Key, std::pair<std::uint64_t, std::string>> failed_;
};

} // namespace poc::detail
