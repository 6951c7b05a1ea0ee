//===- tests/persist/crash_driver.cpp - kill -9 a job, check its store ----===//
//
// persist_crash_driver WORKER [RUNS [WRITERS [OBJECTS [STEPS]]]]
//
// Starts WRITERS worker processes (one "job") on a fresh store (odd ones
// saving with Store::save_all, even ones object by object), kills them
// all with SIGKILL after a random delay, and checks the store: every object
// holds exactly one state of its sequence, no older than the last save the
// worker reported complete and at most one step newer (the save in flight).
// Repeats until RUNS kills landed while the job was working, then lets the
// job run to the end and checks its result. Exit code 0 on success.
//
//===----------------------------------------------------------------------===//
#include "crash_workload.hpp"
#include "poc/persist/error.hpp"
#include "poc/persist/store.hpp"
#include "temp_dir.hpp"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <poll.h>
#include <random>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

using namespace poc::persist;
namespace ct = poc::persist::crashtest;
using Clock = std::chrono::steady_clock;

namespace {

int Failures = 0;

__attribute__((format(printf, 1, 2))) void fail(const char *fmt, ...) {
  std::va_list args;
  va_start(args, fmt);
  std::fprintf(stderr, "FAIL: ");
  std::vfprintf(stderr, fmt, args);
  std::fprintf(stderr, "\n");
  va_end(args);
  ++Failures;
}

/// One running worker and what it has reported.
struct Worker {
  pid_t pid = -1;
  int out = -1;        ///< Read end of its stdout.
  std::string pending; ///< Bytes of an unfinished line.
  std::string done;    ///< Its "done" line's result, if seen.
  int status = 0;
};

Worker spawn(const std::string &exe, const std::string &store, int writer, int objects,
             std::uint32_t steps) {
  int fds[2];
  if (::pipe(fds) != 0) {
    std::perror("pipe");
    std::exit(2);
  }
  pid_t pid = ::fork();
  if (pid < 0) {
    std::perror("fork");
    std::exit(2);
  }
  if (pid == 0) {
    ::dup2(fds[1], 1);
    ::close(fds[0]);
    ::close(fds[1]);
    std::string w = std::to_string(writer), o = std::to_string(objects), s = std::to_string(steps);
    // Odd writers save each round with one Store::save_all.
    const char *mode = writer % 2 ? "batch" : nullptr;
    ::execl(exe.c_str(), exe.c_str(), store.c_str(), w.c_str(), o.c_str(), s.c_str(), mode,
            (char *)nullptr);
    std::perror("exec");
    ::_exit(127);
  }
  ::close(fds[1]);
  Worker wk;
  wk.pid = pid;
  wk.out = fds[0];
  return wk;
}

/// Reads what \p w has written; records completed saves in \p confirmed.
/// \returns false at end of file.
bool drain(Worker &w, std::map<int, std::uint32_t> &confirmed) {
  char buf[4096];
  ssize_t n = ::read(w.out, buf, sizeof buf);
  if (n < 0 && errno == EINTR)
    return true;
  if (n <= 0)
    return false;
  w.pending.append(buf, static_cast<std::size_t>(n));
  std::size_t nl;
  while ((nl = w.pending.find('\n')) != std::string::npos) {
    std::istringstream line(w.pending.substr(0, nl));
    w.pending.erase(0, nl + 1);
    std::string tag;
    line >> tag;
    if (tag == "s") {
      int i;
      std::uint32_t k;
      line >> i >> k;
      confirmed[i] = std::max(confirmed[i], k);
    } else if (tag == "done") {
      line >> w.done;
    }
  }
  return true;
}

/// Pumps all workers' output until \p deadline or until all have closed it.
void pump(std::vector<Worker> &ws, std::vector<std::map<int, std::uint32_t>> &confirmed,
          Clock::time_point deadline) {
  while (Clock::now() < deadline) {
    std::vector<pollfd> p;
    std::vector<std::size_t> who;
    for (std::size_t w = 0; w < ws.size(); ++w)
      if (ws[w].out >= 0) {
        p.push_back({ws[w].out, POLLIN, 0});
        who.push_back(w);
      }
    if (p.empty())
      return;
    auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
    int r = ::poll(p.data(), p.size(), static_cast<int>(std::max<long long>(left, 0)));
    if (r <= 0)
      continue;
    for (std::size_t j = 0; j < p.size(); ++j)
      if (p[j].revents & (POLLIN | POLLHUP | POLLERR))
        if (!drain(ws[who[j]], confirmed[who[j]])) {
          ::close(ws[who[j]].out);
          ws[who[j]].out = -1;
        }
  }
}

/// Checks every object of the store against the workers' reports, then
/// counts each stored state as confirmed: the next run resumes from it, so
/// after the next kill an object may be at most one step beyond it.
void check_store(const Store &store, int writers, int objects,
                 std::vector<std::map<int, std::uint32_t>> &confirmed, int run) {
  for (int w = 0; w < writers; ++w)
    for (int i = 0; i < objects; ++i) {
      auto addr = Address::parse(ct::address_of(w, i));
      std::uint32_t reported = confirmed[w][i];
      if (!store.contains(addr)) {
        if (reported > 0)
          fail("run %d: %s lost; its save of step %u had completed", run, addr.str().c_str(),
               reported);
        continue;
      }
      try {
        Record r = store.load(addr, ct::ClassName, ct::LayoutHash);
        auto k = ct::step_of(w, i, r.payload);
        if (!k)
          fail("run %d: %s holds a state outside its sequence", run, addr.str().c_str());
        else if (*k < reported)
          fail("run %d: %s is at step %u but step %u had been saved", run, addr.str().c_str(), *k,
               reported);
        else if (*k > reported + 1)
          fail("run %d: %s is at step %u, beyond the save in flight (%u)", run, addr.str().c_str(),
               *k, reported + 1);
        else
          confirmed[w][i] = *k;
      } catch (const store_error &e) {
        fail("run %d: %s", run, e.what());
      }
    }
}

} // namespace

int main(int argc, char **argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s WORKER [RUNS [WRITERS [OBJECTS [STEPS]]]]\n", argv[0]);
    return 2;
  }
  std::string exe = argv[1];
  int runs = argc > 2 ? std::atoi(argv[2]) : 12;
  int writers = argc > 3 ? std::atoi(argv[3]) : 2;
  int objects = argc > 4 ? std::atoi(argv[4]) : 6;
  auto steps = static_cast<std::uint32_t>(argc > 5 ? std::atoi(argv[5]) : 300);

  poc::persist::testing::TempDir dir;
  Store store(dir.path());
  std::random_device seed_source;
  unsigned seed = seed_source();
  std::mt19937 rng(seed);
  std::printf("seed %u: %d kills, %d writers x %d objects x %u steps, store %s\n", seed, runs,
              writers, objects, steps, dir.path().c_str());

  std::vector<std::map<int, std::uint32_t>> confirmed(writers);
  int kills = 0, attempts = 0;
  while (kills < runs && Failures == 0) {
    if (++attempts > runs * 4) {
      fail("the job kept finishing before it was killed; raise STEPS");
      break;
    }
    std::vector<Worker> ws;
    for (int w = 0; w < writers; ++w)
      ws.push_back(spawn(exe, dir.path(), w, objects, steps));
    auto delay = std::chrono::milliseconds(std::uniform_int_distribution<int>(5, 120)(rng));
    pump(ws, confirmed, Clock::now() + delay);
    // Kill the whole job at once, as a node failure or `kill -9` would.
    for (auto &w : ws)
      ::kill(w.pid, SIGKILL);
    bool interrupted = false;
    for (std::size_t w = 0; w < ws.size(); ++w) {
      pump(ws, confirmed, Clock::now() + std::chrono::seconds(10));
      ::waitpid(ws[w].pid, &ws[w].status, 0);
      if (WIFSIGNALED(ws[w].status) && ws[w].done.empty())
        interrupted = true;
      else if (!WIFSIGNALED(ws[w].status) && WEXITSTATUS(ws[w].status) != 0)
        fail("worker %zu exited with code %d", w, WEXITSTATUS(ws[w].status));
    }
    if (interrupted)
      ++kills;
    check_store(store, writers, objects, confirmed, attempts);
    std::size_t saved = 0;
    for (auto &c : confirmed)
      for (auto &[i, k] : c)
        saved += k;
    std::printf(
        "run %d: killed after %lld ms%s, %zu saves confirmed so far, %zu leftover temporaries\n",
        attempts, static_cast<long long>(delay.count()), interrupted ? "" : " (already done)",
        saved, store.scan().temporaries.size());
  }

  if (Failures == 0) {
    // No process is writing now: every temporary is a leftover of a kill
    // (clean() also deletes lock files of objects killed before their first save).
    std::size_t temporaries = store.scan().temporaries.size();
    if (store.clean(std::chrono::seconds(0)) < temporaries || !store.scan().temporaries.empty())
      fail("clean() did not remove the %zu leftover temporaries", temporaries);
    check_store(store, writers, objects, confirmed, attempts);
  }

  if (Failures == 0) {
    // The last run goes to the end: the workload must resume and finish.
    std::vector<Worker> ws;
    for (int w = 0; w < writers; ++w)
      ws.push_back(spawn(exe, dir.path(), w, objects, steps));
    pump(ws, confirmed, Clock::now() + std::chrono::seconds(200));
    for (std::size_t w = 0; w < ws.size(); ++w) {
      if (ws[w].out >= 0) {
        fail("worker %zu did not finish in time", w);
        ::kill(ws[w].pid, SIGKILL);
      }
      ::waitpid(ws[w].pid, &ws[w].status, 0);
      std::string want = std::to_string(ct::expected_result(static_cast<int>(w), objects, steps));
      if (!WIFEXITED(ws[w].status) || WEXITSTATUS(ws[w].status) != 0)
        fail("final run: worker %zu ended with status %d", w, ws[w].status);
      else if (ws[w].done != want)
        fail("final run: worker %zu computed %s, expected %s", w, ws[w].done.c_str(), want.c_str());
    }
    for (int w = 0; w < writers; ++w)
      for (int i = 0; i < objects; ++i)
        confirmed[w][i] = steps;
    check_store(store, writers, objects, confirmed, attempts + 1);
  }
  std::printf("%s: %d kills checked\n", Failures ? "FAILED" : "PASSED", kills);
  return Failures ? 1 : 0;
}
