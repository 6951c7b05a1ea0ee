//===- machine_run.cpp - Ready queue, batches, stealing and the end ------===//
#include <dataflow/machine_run.hpp>

#include <poc/sync.hpp>

#include <fmt/format.h>

namespace dataflow {

namespace {

Failure describe(const std::exception_ptr &error) {
  try {
    std::rethrow_exception(error);
  } catch (const node_failure &e) {
    return {e.where(), e.type(), e.message()};
  } catch (const std::exception &e) {
    return {"", detail::readable_type_name(typeid(e)), e.what()};
  } catch (...) {
    return {"", "unknown exception", "an exception that is not a std::exception"};
  }
}

} // namespace

node_failure::node_failure(Failure f)
    : std::runtime_error(fmt::format("{} failed: {}: {}", f.where, f.type, f.message)),
      failure_(std::move(f)) {}

poc::Writer &Outbox::to(int machine) {
  auto &batch = batches_.at(machine);
  if (!batch)
    batch.emplace(in_band_writer());
  return *batch;
}

void Outbox::seal(std::vector<std::uint64_t> &next) {
  for (int m = 0; m < static_cast<int>(batches_.size()); ++m)
    if (batches_[m]) {
      if (!batches_[m]->bytes().empty())
        sealed_.push_back({m, next[m]++, batches_[m]->take()});
      batches_[m].reset();
    }
}

int Outbox::flush(Transport &transport, int from) {
  const int sent = static_cast<int>(sealed_.size());
  for (Sealed &batch : sealed_)
    transport.send(batch.machine, from, batch.sequence, std::move(batch.records));
  sealed_.clear();
  return sent;
}

thread_local InstanceRecord *MachineRun::current_record_ = nullptr;

namespace {

/// The run whose idle worker this thread is while it waits for a job. Such
/// a thread usually polls, so it is the one that receives the batch that
/// makes a job ready, and it takes that job itself when its wait returns.
thread_local const MachineRun *t_idle_worker_of = nullptr;

/// Marks this thread as an idle worker of `run` for its lifetime.
class IdleWorker {
public:
  explicit IdleWorker(const MachineRun *run) noexcept { t_idle_worker_of = run; }
  ~IdleWorker() { t_idle_worker_of = nullptr; }
  IdleWorker(const IdleWorker &) = delete;
  IdleWorker &operator=(const IdleWorker &) = delete;
};

} // namespace

MachineRun::MachineRun(RunSettings settings, Transport &transport)
    : settings_(std::move(settings)), transport_(transport),
      kill_(settings_.recovery.attempt, settings_.machine),
      checkpoint_(settings_.recovery, settings_.machine, &kill_),
      next_sequence_(settings_.machines(), 0), next_to_apply_(settings_.machines(), 0),
      early_(settings_.machines()), machines_done_(settings_.machines()) {
  if (settings_.recovery.attempt > 1 && kill_.due(KillSwitch::Moment::restore))
    kill_.kill_now(KillSwitch::Moment::restore);
}

MachineRun::~MachineRun() = default;

void MachineRun::send(Outbox &out) {
  {
    std::lock_guard<std::mutex> g(mu_);
    seal_locked(out);
  }
  // Sent without the lock: two workers' batches may leave in either order,
  // and their sequence numbers put them back in order at the destination.
  const int sent = out.flush(transport_, settings_.machine);
  if (sent) {
    std::lock_guard<std::mutex> g(mu_);
    stats_.batches_sent += sent;
  }
}

void MachineRun::begin() {
  origin_ = std::chrono::steady_clock::now();
  Outbox out(settings_.machines());
  {
    auto lk = lock();
    begin_locked(out);
  }
  send(out);
}

std::optional<Job> MachineRun::pop_locked() {
  if (ready_.empty())
    return std::nullopt;
  Job job = std::move(ready_.front());
  ready_.pop_front();
  queued_.store(ready_.size(), std::memory_order_relaxed);
  return job;
}

void MachineRun::work(int worker) {
  Outbox out(settings_.machines());
  // What the last round did, counted under the next round's lock (one lock
  // per job, not three).
  bool ran = false, waited = false;
  for (;;) {
    std::optional<Job> job;
    {
      auto lk = lock();
      stats_.jobs_run += ran;
      idle_workers_ -= waited;
      ran = waited = false;
      if (ended_.load())
        break;
      job = pop_locked();
      if (!job) {
        ++idle_workers_;
        if (idle_workers_ == settings_.workers[settings_.machine])
          ask_for_work_locked(out);
      }
    }
    if (!job) {
      send(out);
      IdleWorker idle(this);
      poc::wait_until([this] { return queued_.load() > 0 || ended_.load(); });
      waited = true;
      continue;
    }
    InstanceRecord record;
    if (settings_.record) {
      record.node = job->id;
      record.tag = job->tag;
      record.machine = settings_.machine;
      record.worker = worker;
      if (settings_.scheduling == Scheduling::distributed)
        record.stolen_from = job->from;
      current_record_ = &record;
      record.start_us = now_us();
    }
    if (kill_.due(KillSwitch::Moment::job))
      kill_.kill_now(KillSwitch::Moment::job);
    try {
      execute(*job, out);
    } catch (...) {
      auto lk = lock();
      fail_locked(fmt::format("worker {} of machine {}", worker, settings_.machine),
                  std::current_exception(), out);
    }
    if (settings_.record) {
      record.duration_us = now_us() - record.start_us;
      current_record_ = nullptr;
      auto lk = lock();
      records_.push_back(std::move(record));
    }
    ran = true;
    send(out);
  }
}

void MachineRun::push_ready_locked(Job job, Outbox &out, bool from_worker) {
  ready_.push_back(std::move(job));
  queued_.store(ready_.size(), std::memory_order_relaxed);
  if (!hungry_.empty() && ready_.size() >= 2) {
    const int thief = *hungry_.begin();
    give_work_locked(thief, out);
  }
  // A worker that made the job, or an idle one that received what made it
  // ready, takes one itself next, so it wakes another worker only for a
  // second job (else every idle worker woke for each operand, and all but
  // one went back to sleep).
  from_worker = from_worker || t_idle_worker_of == this;
  if (idle_workers_ > 0 && (!from_worker || ready_.size() >= 2))
    poc::notify_waiters();
}

void MachineRun::dispatch_locked(Job job, int machine, Outbox &out, bool from_worker) {
  if (machine == settings_.machine) {
    push_ready_locked(std::move(job), out, from_worker);
    return;
  }
  poc::Writer &w = out.to(machine);
  w.write(RecordKind::job);
  write_job(job, w);
}

void MachineRun::ask_for_work_locked(Outbox &out) {
  if (!settings_.steal || settings_.scheduling != Scheduling::distributed ||
      settings_.machines() < 2 || steal_answers_awaited_ > 0)
    return;
  for (int m = 0; m < settings_.machines(); ++m)
    if (m != settings_.machine) {
      poc::Writer &w = out.to(m);
      w.write(RecordKind::steal_request);
      w.write(settings_.machine);
      ++steal_answers_awaited_;
    }
}

void MachineRun::give_work_locked(int thief, Outbox &out) {
  // Half of the jobs that may move, taken from the back: the front runs
  // here next.
  std::size_t movable = 0;
  for (const Job &job : ready_)
    movable += stealable(job);
  std::uint64_t given = 0;
  poc::Writer &w = out.to(thief);
  if (ready_.size() >= 2)
    for (auto it = ready_.end(); it != ready_.begin() && given < movable / 2 + movable % 2;) {
      --it;
      if (!stealable(*it))
        continue;
      w.write(RecordKind::job);
      write_job(*it, w);
      it = ready_.erase(it);
      ++given;
    }
  queued_.store(ready_.size(), std::memory_order_relaxed);
  if (given > 0)
    hungry_.erase(thief);
  else
    hungry_.insert(thief);
  w.write(RecordKind::steal_answer);
  w.write(given);
}

void MachineRun::accept(int from, std::uint64_t sequence, std::vector<std::byte> batch) {
  Outbox out(settings_.machines());
  {
    auto lk = lock();
    ++stats_.batches_received;
    if (from < 0 || from >= settings_.machines() || from == settings_.machine ||
        sequence < next_to_apply_[from] || early_[from].count(sequence)) {
      if (!ended_.load())
        fail_locked(fmt::format("the scheduler of machine {}", settings_.machine),
                    std::make_exception_ptr(poc::decode_error(
                        fmt::format("batch {} from machine {} of {} arrived twice or from nowhere",
                                    sequence, from, settings_.machines()))),
                    out);
    } else if (sequence > next_to_apply_[from]) {
      // Another of that machine's workers sent it before an earlier batch.
      early_[from].emplace(sequence, std::move(batch));
    } else {
      applying_from_ = from;
      apply_batch_locked(batch, out);
      ++next_to_apply_[from];
      auto &early = early_[from];
      for (auto it = early.begin(); it != early.end() && it->first == next_to_apply_[from];
           it = early.erase(it)) {
        applying_from_ = from;
        apply_batch_locked(it->second, out);
        ++next_to_apply_[from];
      }
    }
    seal_locked(out);
  }
  send(out);
}

void MachineRun::apply_batch_locked(std::span<const std::byte> batch, Outbox &out) {
  try {
    poc::Reader in(batch);
    while (in.remaining() > 0) {
      const auto kind = in.read<RecordKind>();
      ++stats_.records_received;
      if (kind <= RecordKind::finish)
        apply_common_locked(kind, in, out);
      else
        apply_locked(kind, in, out);
    }
  } catch (...) {
    // After the end, stragglers of a failed run may not add up: ignore them.
    if (!ended_.load())
      fail_locked(fmt::format("the scheduler of machine {}", settings_.machine),
                  std::current_exception(), out);
  }
}

void MachineRun::apply_common_locked(RecordKind kind, poc::Reader &in, Outbox &out) {
  switch (kind) {
  case RecordKind::job: {
    Job job = read_job(in);
    job.from = applying_from_;
    push_ready_locked(std::move(job), out, false);
    return;
  }
  case RecordKind::steal_request:
    give_work_locked(in.read<int>(), out);
    return;
  case RecordKind::steal_answer:
    --steal_answers_awaited_;
    stats_.jobs_stolen += in.read<std::uint64_t>();
    return;
  case RecordKind::machine_done: {
    const int m = in.read<int>();
    if (m < 0 || m >= settings_.machines())
      throw poc::decode_error(
          fmt::format("machine_done from machine {} of {}", m, settings_.machines()));
    machines_done_[m] = true;
    check_complete_locked(out);
    return;
  }
  case RecordKind::failure: {
    Failure f;
    in.read_all(f.where, f.type, f.message);
    if (!failure_)
      failure_ = std::move(f);
    finish_locked(out);
    return;
  }
  case RecordKind::finish:
    ended_.store(true);
    poc::notify_waiters();
    return;
  default:
    throw poc::decode_error(fmt::format("unknown record kind {}", static_cast<int>(kind)));
  }
}

void MachineRun::report_machine_done_locked(Outbox &out) {
  if (poc::Writer *w = route(0, out)) {
    w->write(RecordKind::machine_done);
    w->write(settings_.machine);
    return;
  }
  machines_done_[0] = true;
  check_complete_locked(out);
}

void MachineRun::fail_locked(const std::string &where, std::exception_ptr error, Outbox &out) {
  Failure f = describe(error);
  if (f.where.empty())
    f.where = where;
  if (poc::Writer *w = route(0, out)) {
    w->write(RecordKind::failure);
    w->write_all(f.where, f.type, f.message);
    // Stop here at once; the coordinator stops the others.
    ended_.store(true);
    poc::notify_waiters();
    return;
  }
  if (!failure_)
    failure_ = std::move(f);
  finish_locked(out);
}

void MachineRun::check_complete_locked(Outbox &out) {
  if (ended_.load())
    return;
  for (bool done : machines_done_)
    if (!done)
      return;
  if (complete_locked())
    finish_locked(out);
}

void MachineRun::finish_locked(Outbox &out) {
  // Only the coordinator ends a run, and tells the others once.
  if (ended_.exchange(true))
    return;
  for (int m = 1; m < settings_.machines(); ++m)
    out.to(m).write(RecordKind::finish);
  poc::notify_waiters();
}

std::vector<std::byte> MachineRun::outcome() {
  auto lk = lock();
  poc::Writer w = in_band_writer();
  if (failure_) {
    w.write(true);
    w.write_all(failure_->where, failure_->type, failure_->message);
  } else if (!ended_.load()) {
    w.write(true);
    w.write_all(std::string("the run"), std::string("dataflow::incomplete_run"),
                std::string("the run ended before every node finished"));
  } else {
    w.write(false);
    write_results_locked(w);
  }
  return w.take();
}

MachineStats MachineRun::stats() const {
  std::lock_guard<std::mutex> g(mu_);
  MachineStats s = stats_;
  s.jobs_restored = jobs_restored_;
  s.checkpoints = checkpoint_.records();
  s.checkpointed = checkpoint_.entries();
  s.checkpoint_us = static_cast<std::uint64_t>(checkpoint_.seconds() * 1e6);
  return s;
}

double MachineRun::now_us() const {
  return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - origin_)
      .count();
}

namespace {
void write_spans(poc::Writer &w, const std::vector<std::vector<std::uint64_t>> &spans) {
  w.write(static_cast<std::uint64_t>(spans.size()));
  for (const auto &span : spans)
    w.write_all(span.at(0), span.at(1), span.at(2));
}
void read_spans(poc::Reader &in, std::vector<std::vector<std::uint64_t>> &spans) {
  spans.resize(in.read<std::uint64_t>());
  for (auto &span : spans) {
    span.resize(3);
    in.read_all(span[0], span[1], span[2]);
  }
}
} // namespace

std::vector<std::byte> MachineRun::records() const {
  std::lock_guard<std::mutex> g(mu_);
  poc::Writer w = in_band_writer();
  w.write(static_cast<std::uint64_t>(records_.size()));
  for (const InstanceRecord &r : records_) {
    w.write_all(r.node, r.tag, r.machine, r.worker, r.start_us, r.duration_us, r.bytes_in,
                r.bytes_out, r.stolen_from, r.restored);
    write_spans(w, r.read);
    write_spans(w, r.written);
  }
  return w.take();
}

void read_records(std::span<const std::byte> bytes, std::vector<InstanceRecord> &into) {
  poc::Reader in(bytes);
  for (auto n = in.read<std::uint64_t>(); n > 0; --n) {
    InstanceRecord r;
    in.read_all(r.node, r.tag, r.machine, r.worker, r.start_us, r.duration_us, r.bytes_in,
                r.bytes_out, r.stolen_from, r.restored);
    read_spans(in, r.read);
    read_spans(in, r.written);
    into.push_back(std::move(r));
  }
  in.expect_end();
}

} // namespace dataflow
