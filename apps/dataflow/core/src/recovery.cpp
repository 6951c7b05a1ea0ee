//===- recovery.cpp - Checkpoint records, their loading, and test kills --===//
#include <dataflow/operand.hpp>
#include <dataflow/recovery.hpp>

#include <fmt/format.h>

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <unistd.h>

namespace dataflow {

namespace {

const char *environment(const char *name) {
  const char *value = std::getenv(name);
  return value && *value ? value : nullptr;
}

double parse_number(const char *name, const char *text, double minimum) {
  char *end = nullptr;
  const double value = std::strtod(text, &end);
  if (end == text || *end != '\0' || !(value >= minimum))
    throw checkpoint_error(
        fmt::format("{}='{}': needs a number of at least {}", name, text, minimum));
  return value;
}

/// Entries are node, tag, then the outputs' bytes with their length.
void write_entry(poc::Writer &w, std::uint32_t node, std::uint64_t tag,
                 std::span<const std::byte> outputs) {
  w.write_all(node, tag);
  w.write_size(outputs.size());
  w.write_bytes(outputs.data(), outputs.size());
}

CheckpointEntry read_entry(poc::Reader &in) {
  CheckpointEntry e;
  in.read_all(e.node, e.tag);
  const auto size = static_cast<std::size_t>(in.read_size(in.remaining()));
  const auto bytes = in.read_view(size);
  e.outputs.assign(bytes.begin(), bytes.end());
  return e;
}

} // namespace

std::uint64_t fingerprint(std::span<const std::byte> bytes, std::uint64_t hash) {
  for (const std::byte b : bytes) {
    hash ^= static_cast<std::uint64_t>(b);
    hash *= 0x100000001b3ULL;
  }
  return hash;
}

RecoverySettings RecoverySettings::from_environment() {
  RecoverySettings s;
  if (const char *dir = environment("POC_DATAFLOW_CHECKPOINT"))
    s.directory = dir;
  if (const char *interval = environment("POC_DATAFLOW_CHECKPOINT_INTERVAL"))
    s.interval = parse_number("POC_DATAFLOW_CHECKPOINT_INTERVAL", interval, 0);
  if (const char *attempt = environment("POC_DATAFLOW_ATTEMPT"))
    s.attempt = static_cast<int>(parse_number("POC_DATAFLOW_ATTEMPT", attempt, 1));
  return s;
}

std::vector<CheckpointEntry> load_checkpoint(const RecoverySettings &settings, std::size_t nodes) {
  std::vector<CheckpointEntry> entries;
  const poc::persist::Store store(settings.directory);
  try {
    for (const auto &address : store.list(fmt::format("g{:016x}/", settings.graph))) {
      const poc::persist::Record record = store.load(address, checkpoint_class, settings.graph);
      // The index, then each entry's outputs in its order (recovery.hpp).
      poc::Reader in(record.payload);
      const std::size_t first = entries.size();
      std::vector<std::size_t> sizes(in.read_count(1));
      for (std::size_t &size : sizes) {
        CheckpointEntry &e = entries.emplace_back();
        in.read_all(e.node, e.tag);
        size = static_cast<std::size_t>(in.read_size(in.remaining()));
        if (e.node >= nodes)
          throw checkpoint_error(fmt::format("record '{}' names node {} of a graph of {}",
                                             address.str(), e.node, nodes));
      }
      for (std::size_t k = 0; k < sizes.size(); ++k) {
        const auto bytes = in.read_view(sizes[k]);
        entries[first + k].outputs.assign(bytes.begin(), bytes.end());
      }
      in.expect_end();
    }
  } catch (const std::exception &e) { // the store's error, or a record of another graph
    throw checkpoint_error(
        fmt::format("the checkpoint in {} does not verify: {}", settings.directory, e.what()));
  }
  return entries;
}

std::vector<std::byte> encode_restored(const std::vector<CheckpointEntry> &entries) {
  poc::Writer w = in_band_writer();
  w.write_size(entries.size());
  for (const CheckpointEntry &e : entries)
    write_entry(w, e.node, e.tag, e.outputs);
  return w.take();
}

std::vector<CheckpointEntry> read_restored(std::span<const std::byte> bytes) {
  poc::Reader in(bytes);
  std::vector<CheckpointEntry> entries(in.read_count(1));
  for (CheckpointEntry &e : entries)
    e = read_entry(in);
  in.expect_end();
  return entries;
}

KillSwitch::KillSwitch(int attempt, int machine) : machine_(machine), attempt_(attempt) {
  const char *spec = environment("POC_DATAFLOW_KILL");
  if (!spec)
    return;
  std::istringstream list(spec);
  std::string kill;
  while (std::getline(list, kill, ',')) {
    int a = 0, m = 0;
    char moment[16] = {};
    unsigned long long count = 0;
    if (std::sscanf(kill.c_str(), "%d:%d:%15[a-z]:%llu", &a, &m, moment, &count) != 4 || count == 0)
      throw checkpoint_error(fmt::format("POC_DATAFLOW_KILL: '{}' is not "
                                         "attempt:machine:job|checkpoint|restore:count",
                                         kill));
    const std::string what = moment;
    const Moment at =
        what == "job"          ? Moment::job
        : what == "checkpoint" ? Moment::checkpoint
        : what == "restore"
            ? Moment::restore
            : throw checkpoint_error(fmt::format("POC_DATAFLOW_KILL: no moment '{}'", what));
    if (a == attempt && m == machine)
      at_[static_cast<std::size_t>(at)] = count;
  }
}

void KillSwitch::kill_now(Moment moment) const {
  const double now =
      std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
  const std::uint64_t count = at_[static_cast<std::size_t>(moment)];
  const std::string what = moment == Moment::job ? fmt::format("before its job {}", count)
                           : moment == Moment::checkpoint
                               ? fmt::format("while writing its checkpoint {}", count)
                               : std::string("while the re-deploy is prepared");
  fmt::print(stderr,
             "dataflow: test kill: machine {} (pid {}) dies {} in deployment {} at {:.6f}\n",
             machine_, getpid(), what, attempt_, now);
  std::fflush(stderr);
  std::raise(SIGKILL);
  std::abort(); // not reached
}

CheckpointLog::CheckpointLog(const RecoverySettings &settings, int machine, KillSwitch *kill)
    : prefix_(fmt::format("g{:016x}/a{}/m{}/c", settings.graph, settings.attempt, machine)),
      graph_(settings.graph), interval_(settings.interval), kill_(kill) {
  if (!settings.enabled())
    return;
  store_.emplace(settings.directory);
  writer_ = std::thread([this] { write_loop(); });
}

CheckpointLog::~CheckpointLog() {
  {
    std::lock_guard<std::mutex> g(mu_);
    stop_ = true;
  }
  wake_.notify_one();
  if (writer_.joinable())
    writer_.join();
}

void CheckpointLog::add(std::uint32_t node, std::uint64_t tag, std::span<const Operand> outputs) {
  {
    std::lock_guard<std::mutex> g(mu_);
    poc::Writer &w = gathering_.outputs;
    const std::size_t start = w.size();
    try {
      for (const Operand &output : outputs)
        output.encode(w);
    } catch (...) {
      w.truncate(start, 0); // no half entry in the record
      throw;
    }
    gathering_.entries.push_back({node, tag, w.size() - start});
  }
  if (interval_.count() == 0)
    wake_.notify_one();
}

void CheckpointLog::write_loop() {
  std::unique_lock<std::mutex> lk(mu_);
  std::uint64_t sequence = 0;
  for (;;) {
    if (interval_.count() == 0)
      wake_.wait(lk, [this] { return stop_ || !gathering_.entries.empty(); });
    else
      wake_.wait_for(lk, interval_, [this] { return stop_; });
    if (gathering_.entries.empty()) {
      if (stop_)
        return;
      continue;
    }
    // The workers stop only for this swap; they go on in the buffer
    // written last time.
    std::swap(gathering_, writing_);
    lk.unlock();
    const auto started = std::chrono::steady_clock::now();
    const std::span<const Gathered::Entry> entries = writing_.entries;
    const std::span<const std::byte> outputs = writing_.outputs.bytes();
    std::uint64_t written = 0;
    if (interval_.count() == 0) {
      // A record per entry, as a checkpoint after every job promises.
      std::size_t offset = 0;
      for (std::size_t e = 0; e < entries.size(); ++e) {
        write(entries.subspan(e, 1), outputs.subspan(offset, entries[e].bytes), sequence++);
        offset += entries[e].bytes;
        ++written;
      }
    } else {
      write(entries, outputs, sequence++);
      written = 1;
    }
    const std::chrono::duration<double> took = std::chrono::steady_clock::now() - started;
    const std::size_t count = entries.size();
    writing_.entries.clear();
    writing_.outputs.clear();
    lk.lock();
    records_ += written;
    entries_ += count;
    seconds_ += took.count();
  }
}

void CheckpointLog::write(std::span<const Gathered::Entry> entries,
                          std::span<const std::byte> outputs, std::uint64_t sequence) {
  index_.clear();
  index_.write_size(entries.size());
  for (const Gathered::Entry &e : entries) {
    index_.write_all(e.node, e.tag);
    index_.write_size(e.bytes);
  }
  // Index and outputs go to the file as they are, without being joined.
  const std::span<const std::byte> parts[] = {index_.bytes(), outputs};
  const auto address = poc::persist::Address::parse(prefix_ + std::to_string(sequence));
  if (kill_ && kill_->due(KillSwitch::Moment::checkpoint)) {
    // What a death in the middle of a save leaves: the store's temporary
    // file, half written, beside the records (docs/persistence.md 4).
    const auto file = store_->file_of(address);
    std::filesystem::create_directories(file.parent_path());
    std::ofstream part(file.parent_path() /
                           fmt::format(".{}.{}.0.tmp", file.filename().string(), getpid()),
                       std::ios::binary);
    part.write(reinterpret_cast<const char *>(index_.bytes().data()),
               static_cast<std::streamsize>(index_.size()));
    part.write(reinterpret_cast<const char *>(outputs.data()),
               static_cast<std::streamsize>(outputs.size() / 2));
    part.flush();
    kill_->kill_now(KillSwitch::Moment::checkpoint);
  }
  store_->save_parts(address, checkpoint_class, graph_, parts);
}

std::uint64_t CheckpointLog::records() const {
  std::lock_guard<std::mutex> g(mu_);
  return records_;
}

std::uint64_t CheckpointLog::entries() const {
  std::lock_guard<std::mutex> g(mu_);
  return entries_;
}

double CheckpointLog::seconds() const {
  std::lock_guard<std::mutex> g(mu_);
  return seconds_;
}

} // namespace dataflow
