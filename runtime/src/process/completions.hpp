#pragma once
/// \file
/// The started requests a host has finished (executed or refused), counted
/// per caller until that caller asks for them (docs/runtime.md section 4).
/// A stream of `start` calls then costs one message per call and nothing
/// back: the caller asks only when it waits (poc::sync(), the end of the
/// job), with the number it waits for, and gets one acknowledgement, with
/// the errors, once that many have finished. Each query is answered by
/// exactly one acknowledgement, and a caller asks again only after it
/// arrived, so the counts on both sides never cross on the way (an
/// acknowledgement sent unasked, for an error say, could meet a query
/// that did not know of it). Guarded by the engine's mutex.

#include "failure.hpp"
#include "transport/engine.hpp"

#include <cstdint>
#include <unordered_map>
#include <vector>

namespace poc::detail {

class Completions {
public:
  explicit Completions(Engine &engine) : engine_(engine) {}

  /// A started request from context `caller` of host `origin` has
  /// finished; `failure` (null: none) is its error, for the method or
  /// constructor `member`.
  void finished(int origin, std::uint64_t caller, std::uint64_t member,
                const RemoteFailure *failure, HostLock &lk);
  /// A caller asks (Kind::ack_query) to be acknowledged once the number of
  /// its requests it names have finished.
  void asked(const Message &query, HostLock &lk);

private:
  /// One caller: a context on one host.
  struct Caller {
    int origin = -1;
    std::uint64_t context = 0;
    friend bool operator==(const Caller &, const Caller &) = default;
  };
  struct CallerHash {
    std::size_t operator()(const Caller &c) const noexcept {
      return std::hash<std::uint64_t>()(c.context * 0x9e3779b97f4a7c15ULL ^
                                        static_cast<std::uint64_t>(c.origin));
    }
  };
  /// What a caller has not been told yet.
  struct Untold {
    std::uint64_t finished = 0;
    /// How many finished requests the caller waits for (0: it does not ask).
    std::uint64_t awaited = 0;
    std::vector<StartedFailure> errors;
  };

  /// Acknowledges every request of `caller` counted in `untold`, which is
  /// then forgotten.
  void acknowledge(const Caller &caller, Untold &untold, HostLock &lk);

  Engine &engine_;
  std::unordered_map<Caller, Untold, CallerHash> untold_;
};

} // namespace poc::detail
