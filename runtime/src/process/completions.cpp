#include "completions.hpp"

#include <fmt/format.h>

#include <cstdio>

namespace poc::detail {

void Completions::finished(int origin, std::uint64_t caller, std::uint64_t member,
                           const RemoteFailure *failure, HostLock &lk) {
  const Caller key{origin, caller};
  Untold &untold = untold_[key];
  ++untold.finished;
  if (failure)
    untold.errors.push_back({member, *failure});
  if (untold.awaited && untold.finished >= untold.awaited)
    acknowledge(key, untold, lk);
}

void Completions::asked(const Message &query, HostLock &lk) {
  const AckQueryHead head = query.head<AckQueryHead>();
  if (head.awaited == 0) {
    fmt::print(stderr,
               "poc: host {}: refused an acknowledgement query for no request from host {}\n",
               engine_.rank(), query.source());
    return;
  }
  const Caller key{query.source(), head.caller};
  Untold &untold = untold_[key];
  if (untold.awaited)
    fmt::print(stderr, "poc: host {}: host {} asked again before its acknowledgement arrived\n",
               engine_.rank(), query.source());
  untold.awaited = head.awaited;
  if (untold.finished >= untold.awaited)
    acknowledge(key, untold, lk);
}

void Completions::acknowledge(const Caller &caller, Untold &untold, HostLock &lk) {
  Writer body;
  body.write_size(untold.errors.size());
  for (const StartedFailure &e : untold.errors) {
    body.write(e.member);
    e.failure.write(body);
  }
  const AckHead head{caller.context, untold.finished};
  untold_.erase(caller);
  engine_.sender().send(caller.origin, Kind::ack, head, body.bytes(), lk);
}

} // namespace poc::detail
