//===- entry.cpp - Tokens, settings and the host's runs ------------------===//
#include <dataflow/entry.hpp>

#include <fmt/format.h>

#include <map>
#include <mutex>

namespace dataflow::detail {

void token_anchor() {}

std::vector<std::byte> encode_settings(const RunSettings &s) {
  poc::Writer w = in_band_writer();
  w.write_all(s.scheduling, s.steal, s.record, s.machine, s.workers);
  w.write(static_cast<std::uint64_t>(s.placement.size()));
  for (const Place &p : s.placement)
    w.write_all(p.machine, p.worker);
  w.write_all(s.recovery.directory, s.recovery.interval, s.recovery.attempt, s.recovery.graph,
              s.restored);
  return w.take();
}

RunSettings decode_settings(std::span<const std::byte> bytes) {
  poc::Reader in(bytes);
  RunSettings s;
  in.read_all(s.scheduling, s.steal, s.record, s.machine, s.workers);
  s.placement.resize(in.read<std::uint64_t>());
  for (Place &p : s.placement)
    in.read_all(p.machine, p.worker);
  in.read_all(s.recovery.directory, s.recovery.interval, s.recovery.attempt, s.recovery.graph,
              s.restored);
  in.expect_end();
  if (s.machine < 0 || s.machine >= s.machines())
    throw poc::decode_error(fmt::format("settings for machine {} of {}", s.machine, s.machines()));
  for (const Place &p : s.placement)
    if (p.machine < 0 || p.machine >= s.machines() || p.worker < 0 ||
        p.worker >= s.workers[p.machine])
      throw poc::decode_error(
          fmt::format("a placement on worker {} of machine {}", p.worker, p.machine));
  return s;
}

namespace {
std::mutex runs_mutex;
std::map<std::uint64_t, std::shared_ptr<MachineRun>> &runs() {
  static std::map<std::uint64_t, std::shared_ptr<MachineRun>> all;
  return all;
}
} // namespace

void register_run(std::uint64_t id, std::shared_ptr<MachineRun> run) {
  std::lock_guard<std::mutex> g(runs_mutex);
  runs()[id] = std::move(run);
}

std::shared_ptr<MachineRun> find_run(std::uint64_t id) {
  std::lock_guard<std::mutex> g(runs_mutex);
  const auto it = runs().find(id);
  if (it == runs().end())
    throw std::logic_error(fmt::format("dataflow: run {} is not on this host", id));
  return it->second;
}

void unregister_run(std::uint64_t id) {
  std::lock_guard<std::mutex> g(runs_mutex);
  runs().erase(id);
}

} // namespace dataflow::detail
