#include "barriers.hpp"

#include <fmt/format.h>
#include <poc/errors.hpp>

#include <cstdio>

namespace poc::detail {
namespace {

std::vector<std::byte> text_body(const std::string &text) {
  Writer w;
  w.write(text);
  return w.take();
}

} // namespace

Barriers::Barriers(Engine &engine) : engine_(engine) {}

void Barriers::arrive(int coordinator, std::uint64_t group, std::uint64_t epoch,
                      std::uint64_t members) {
  HostLock lk(engine_.progress());
  engine_.sender().send(coordinator, Kind::barrier_arrive, BarrierArrive{group, epoch, members}, {},
                        lk);
}

void Barriers::wait(HostLock &lk, std::uint64_t group, std::uint64_t epoch, const bool &ending) {
  const Key key{group, epoch};
  engine_.progress().wait_until(lk, [&] {
    auto it = released_.find(key);
    return (it != released_.end() && it->second > 0) || failed_.count(key) || ending;
  });
  auto it = released_.find(key);
  if (it != released_.end() && it->second > 0) {
    if (--it->second == 0)
      released_.erase(it);
    return;
  }
  if (auto f = failed_.find(key); f != failed_.end()) {
    std::string text = f->second.second;
    if (--f->second.first == 0)
      failed_.erase(f);
    throw barrier_abandoned(text);
  }
  throw usage_error("poc: the program ended while a process waited at a barrier");
}

void Barriers::abandon(int coordinator, std::uint64_t group, std::uint64_t epoch,
                       const std::string &text) {
  HostLock lk(engine_.progress());
  if (coordinator == engine_.rank())
    fail(group, epoch, text, lk);
  else
    engine_.sender().send(coordinator, Kind::barrier_abandon, BarrierAbandon{group, epoch},
                          text_body(text), lk);
}

void Barriers::route(const Message &m, HostLock &lk) {
  switch (m.kind()) {
  case Kind::barrier_arrive:
    on_arrive(m.source(), m.head<BarrierArrive>(), lk);
    break;
  case Kind::barrier_release: {
    const BarrierRelease r = m.head<BarrierRelease>();
    const Key key{r.group, r.epoch};
    if (r.status == Status::ok) {
      released_[key] += r.passes;
      break;
    }
    auto &[count, text] = failed_[key];
    count += r.passes;
    try {
      Reader body(m.body());
      text = body.read<std::string>();
    } catch (const std::exception &e) {
      text = "barrier abandoned (unreadable reason: " + std::string(e.what()) + ")";
    }
    break;
  }
  case Kind::barrier_abandon:
    try {
      const BarrierAbandon a = m.head<BarrierAbandon>();
      Reader body(m.body());
      auto text = body.read<std::string>();
      body.expect_end();
      fail(a.group, a.epoch, text, lk);
    } catch (const std::exception &e) {
      fmt::print(stderr, "poc: host {}: malformed barrier message from host {}: {}\n",
                 engine_.rank(), m.source(), e.what());
    }
    break;
  default:
    throw std::logic_error("poc: a message for the barriers that is none of theirs");
  }
  engine_.progress().notify(lk);
}

void Barriers::on_arrive(int source, const BarrierArrive &a, HostLock &lk) {
  if (auto ab = abandoned_.find(a.group); ab != abandoned_.end() && ab->second.epoch <= a.epoch)
    return release(source, {a.group, a.epoch}, 1, &ab->second.text, lk);
  Arrivals &arrivals = arrivals_[{a.group, a.epoch}];
  arrivals.size = a.members;
  ++arrivals.count;
  ++arrivals.per_host[source];
  if (arrivals.count < arrivals.size)
    return;
  for (auto [dest, n] : arrivals.per_host)
    release(dest, {a.group, a.epoch}, n, nullptr, lk);
  arrivals_.erase({a.group, a.epoch});
}

void Barriers::release(int dest, const Key &key, std::uint64_t passes, const std::string *failure,
                       HostLock &lk) {
  BarrierRelease r{key.first, key.second, passes, failure ? Status::failed : Status::ok};
  engine_.sender().send(dest, Kind::barrier_release, r,
                        failure ? text_body(*failure) : std::vector<std::byte>{}, lk);
}

void Barriers::fail(std::uint64_t group, std::uint64_t epoch, const std::string &text,
                    HostLock &lk) {
  auto [ab, added] = abandoned_.try_emplace(group, Abandoned{epoch, text});
  if (!added) {
    // The earliest barrier that cannot complete decides (a member whose
    // barrier failed abandons the next one too).
    if (epoch >= ab->second.epoch)
      return;
    ab->second = Abandoned{epoch, text};
  }
  for (auto it = arrivals_.lower_bound({group, epoch});
       it != arrivals_.end() && it->first.first == group;) {
    for (auto [dest, n] : it->second.per_host)
      release(dest, it->first, n, &text, lk);
    it = arrivals_.erase(it);
  }
  engine_.progress().notify(lk);
}

} // namespace poc::detail
