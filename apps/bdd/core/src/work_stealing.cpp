#include "bdd/work_stealing.hpp"

#include "bdd/node_table.hpp"

#include <algorithm>
#include <numeric>
#include <stdexcept>
#include <string>

namespace bdd {

namespace {

// A member's window, in bytes.
constexpr std::size_t kRequest = 0;   ///< 0, or thief + 1 while a thief waits
constexpr std::size_t kStop = 8;      ///< the number of the last run member 0 finished
constexpr std::size_t kTransfer = 16; ///< status, then op, a, b, c, slot, serial
constexpr std::size_t kResults = 128; ///< per stack slot: serial, result
constexpr std::size_t kMaxFrames = std::size_t{1} << 16;

constexpr std::uint64_t kWaiting = 0, kGiven = 1, kNone = 2;
/// The result a thief writes when its stolen task failed.
constexpr Edge kFailed = ~0ull;

std::size_t result_offset(std::uint64_t slot) { return kResults + slot * 16; }

} // namespace

WorkStealing::WorkStealing(MPI_Comm team, Access access, Runner runner)
    : memory_(team, kResults + kMaxFrames * 16, access), runner_(std::move(runner)),
      me_(memory_.rank()), members_(memory_.ranks()),
      random_(static_cast<unsigned>(memory_.rank()) * 7919u + 1u) {
  MPI_Comm_dup(team, &team_);
  // Hierarchical victims: the members on this node, then the others.
  MPI_Comm node;
  MPI_Comm_split_type(team, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  int node_size = 0;
  MPI_Comm_size(node, &node_size);
  std::vector<int> local(static_cast<std::size_t>(node_size)), in_team(local.size());
  std::iota(local.begin(), local.end(), 0);
  MPI_Group node_group, team_group;
  MPI_Comm_group(node, &node_group);
  MPI_Comm_group(team, &team_group);
  MPI_Group_translate_ranks(node_group, node_size, local.data(), team_group, in_team.data());
  MPI_Group_free(&node_group);
  MPI_Group_free(&team_group);
  MPI_Comm_free(&node);
  for (int m : in_team)
    if (m != me_)
      victims_.push_back(m);
  nearby_ = victims_.size();
  for (int m = 0; m < members_; ++m)
    if (std::find(in_team.begin(), in_team.end(), m) == in_team.end())
      victims_.push_back(m);
  stack_.reserve(4096);
}

WorkStealing::~WorkStealing() { MPI_Comm_free(&team_); }

std::uint64_t WorkStealing::poll_interval() const noexcept {
  // A look at the request cell is one load on shared memory but a round
  // trip to this rank's own window over MPI.
  return memory_.access() == Access::Shared ? 1 : 64;
}

void WorkStealing::poll() {
  if (++polls_ % poll_interval() == 0)
    answer_requests();
}

void WorkStealing::spawn(const Task &task) {
  if (stack_.size() == kMaxFrames)
    throw std::runtime_error("work stealing: more than " + std::to_string(kMaxFrames) +
                             " spawned tasks pending");
  stack_.push_back(Frame{task});
  ++counters_.spawned;
  poll();
}

Edge WorkStealing::sync() {
  const std::size_t slot = stack_.size() - 1;
  if (!stack_[slot].stolen) {
    const Task task = stack_[slot].task;
    stack_.pop_back();
    oldest_ = std::min(oldest_, stack_.size());
    poll();
    return runner_(task);
  }
  // Stolen: wait for the thief's result, working on its tasks meanwhile.
  const int thief = stack_[slot].thief;
  const std::uint64_t serial = stack_[slot].serial;
  auto arrived = [&] { return memory_.load(me_, result_offset(slot)) == serial; };
  while (!arrived()) {
    answer_requests();
    if (!arrived() && steal_from(thief))
      ++counters_.leapfrogs;
  }
  const Edge result = memory_.load(me_, result_offset(slot) + 8);
  stack_.pop_back();
  oldest_ = std::min(oldest_, stack_.size());
  if (result == kFailed)
    throw TableFull("node table full: a task stolen by member " + std::to_string(thief) +
                    " could not make its nodes; give more memory with --table-mib or run on "
                    "more ranks");
  return result;
}

void WorkStealing::answer_requests() {
  const std::uint64_t request = memory_.load(me_, kRequest);
  if (request == 0)
    return;
  const int thief = static_cast<int>(request - 1);
  if (oldest_ < stack_.size()) {
    Frame &f = stack_[oldest_];
    f.stolen = true;
    f.thief = thief;
    f.serial = ++serial_;
    const std::uint64_t transfer[6] = {
        static_cast<std::uint64_t>(f.task.op), f.task.a, f.task.b, f.task.c, oldest_, f.serial};
    ++oldest_;
    ++counters_.stolen_from_me;
    memory_.write_words(thief, kTransfer + 8, 6, transfer);
    memory_.store(thief, kTransfer, kGiven);
  } else {
    memory_.store(thief, kTransfer, kNone);
  }
  memory_.store(me_, kRequest, 0);
}

bool WorkStealing::steal_from(int victim) {
  ++counters_.attempts;
  memory_.store(me_, kTransfer, kWaiting);
  if (memory_.compare_and_swap(victim, kRequest, 0, static_cast<std::uint64_t>(me_) + 1) != 0)
    return false; // another thief is being served
  std::uint64_t status;
  while ((status = memory_.load(me_, kTransfer)) == kWaiting)
    answer_requests(); // the victim may be asking us at the same time
  if (status == kNone)
    return false;
  std::uint64_t t[6];
  memory_.load_words(me_, kTransfer + 8, 6, t);
  Edge result;
  try {
    result = runner_(Task{static_cast<Operation>(t[0]), t[1], t[2], t[3]});
  } catch (...) {
    if (!failure_)
      failure_ = std::current_exception();
    result = kFailed;
  }
  memory_.store(victim, result_offset(t[4]) + 8, result);
  memory_.store(victim, result_offset(t[4]), t[5]);
  ++counters_.steals;
  return true;
}

void WorkStealing::steal_until(const std::function<bool()> &done) {
  while (!done()) {
    answer_requests();
    // This node's members first, from a random one; the others after.
    const std::size_t start = nearby_ ? random_() % nearby_ : 0;
    bool got = false;
    for (std::size_t i = 0; i < victims_.size() && !got && !done(); ++i) {
      const std::size_t k = i < nearby_ ? (start + i) % nearby_ : i;
      got = steal_from(victims_[k]);
    }
  }
}

Edge WorkStealing::run(const std::function<Edge()> &root) {
  ++runs_;
  Edge result = kFalse;
  std::exception_ptr failure;
  if (me_ == 0) {
    try {
      result = root();
    } catch (...) {
      failure = std::current_exception();
    }
    for (int m = 1; m < members_; ++m)
      memory_.store(m, kStop, runs_);
  } else {
    steal_until([&] { return memory_.load(me_, kStop) >= runs_; });
  }
  // Keep answering (with "none") until every member has stopped, so that a
  // thief that asked just before the end is not left waiting.
  MPI_Request barrier;
  MPI_Ibarrier(team_, &barrier);
  for (int stopped = 0; !stopped;) {
    answer_requests();
    MPI_Test(&barrier, &stopped, MPI_STATUS_IGNORE);
  }
  if (!failure && failure_)
    std::swap(failure, failure_);
  if (failure)
    std::rethrow_exception(failure);
  return result;
}

} // namespace bdd
