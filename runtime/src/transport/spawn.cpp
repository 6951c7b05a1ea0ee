// Spawning hosts with MPI_Comm_spawn, the spawned side's start, and the
// disconnection of spawned hosts at the end of the job.

#include "spawn.hpp"

#include "connections.hpp"
#include "host_numbers.hpp"

#include <fmt/format.h>
#include <poc/errors.hpp>

#include <signal.h>

#include <fcntl.h>
#include <netdb.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

namespace poc::detail {
namespace {

std::vector<std::string> g_arguments;

/// The running executable (argv[0] may be relative to a directory the
/// spawned process does not start in).
std::string program_path() {
  char buf[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (n > 0)
    return std::string(buf, static_cast<std::size_t>(n));
  return g_arguments.empty() ? std::string() : g_arguments.front();
}

/// True if `hostname` resolves. Open MPI's launcher hangs instead of
/// failing when asked to start a process on a host it cannot reach, so a
/// name that does not even resolve is refused before spawning.
bool resolves(const std::string &hostname) {
  addrinfo hints{};
  hints.ai_socktype = SOCK_STREAM;
  addrinfo *res = nullptr;
  if (getaddrinfo(hostname.c_str(), nullptr, &hints, &res) != 0)
    return false;
  freeaddrinfo(res);
  return true;
}

/// How long a parent waits without a heartbeat from a host it spawned
/// before it ends the job: POC_HOST_SILENCE_S seconds (default 10).
std::chrono::steady_clock::duration silence_limit() {
  static const std::chrono::steady_clock::duration limit = [] {
    const char *env = std::getenv("POC_HOST_SILENCE_S");
    const long seconds = env && *env ? std::strtol(env, nullptr, 10) : 0;
    return std::chrono::steady_clock::duration(std::chrono::seconds(seconds > 0 ? seconds : 10));
  }();
  return limit;
}

/// True if the process `pid` on this node has ended: gone, or a zombie
/// (dead, not yet reaped by its parent, which is Open MPI's daemon and not
/// this process).
bool has_ended(pid_t pid) {
  if (kill(pid, 0) != 0 && errno == ESRCH)
    return true;
  // Plain read(2): a process reaped meanwhile makes it fail, which means gone.
  const int fd = open(("/proc/" + std::to_string(pid) + "/stat").c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return true;
  char text[512];
  const ssize_t n = read(fd, text, sizeof text);
  close(fd);
  if (n <= 0)
    return true;
  // "PID (COMMAND) STATE ...": the command may hold spaces and parentheses.
  const std::string_view stat(text, static_cast<std::size_t>(n));
  const auto paren = stat.rfind(')');
  return paren != std::string_view::npos && paren + 2 < stat.size() &&
         (stat[paren + 2] == 'Z' || stat[paren + 2] == 'X');
}

} // namespace

void remember_arguments(int argc, char **argv) { g_arguments.assign(argv, argv + argc); }

SpawnedHosts::SpawnedHosts(Engine &engine, int job_hosts)
    : engine_(engine), job_hosts_(job_hosts) {}

std::vector<int> SpawnedHosts::hosts(HostLock &) const {
  std::vector<int> hosts;
  for (const Child &c : children_)
    hosts.push_back(c.host);
  return hosts;
}

SpawnedHosts::Child *SpawnedHosts::child(int host) noexcept {
  for (Child &c : children_)
    if (c.host == host)
      return &c;
  return nullptr;
}

void SpawnedHosts::heard_from(int host, HostLock &) {
  if (Child *c = child(host))
    c->heard = std::chrono::steady_clock::now();
}

void SpawnedHosts::reported_done(int host, HostLock &) {
  if (Child *c = child(host))
    c->done = true;
}

void SpawnedHosts::check_alive(HostLock &) {
  // Also while the job ends: a host that dies before it reports that it is
  // done would keep its parent waiting for that report.
  if (children_.empty())
    return;
  const auto now = std::chrono::steady_clock::now();
  // The watchdog runs only while this host polls (every 100 ms or so then).
  // After a longer pause, heartbeats that came meanwhile may still wait to
  // be received: the silence starts again instead.
  if (now - checked_ > std::chrono::seconds(1))
    for (Child &c : children_)
      c.heard = now;
  checked_ = now;
  for (const Child &c : children_) {
    if (c.done)
      continue;
    if (here(c) && has_ended(c.pid))
      end_job_for(c, "has died", false);
    if (now - c.heard > silence_limit())
      end_job_for(
          c,
          fmt::format("has sent nothing for {} s (stopped, hung or cut off)",
                      std::chrono::duration_cast<std::chrono::seconds>(now - c.heard).count()),
          here(c));
  }
}

bool SpawnedHosts::here(const Child &c) {
  static const std::string node = [] {
    char name[256] = {};
    gethostname(name, sizeof name - 1);
    return std::string(name);
  }();
  return c.node == node;
}

void SpawnedHosts::peer_failed(int host, const std::string &failure, HostLock &) {
  const Child *c = child(host);
  // A host that reported that it is done may end: no death.
  if (!c || c->done)
    return;
  if (!here(*c))
    end_job_for(*c, "has died or is cut off (" + failure + ")", false);
  const auto until = std::chrono::steady_clock::now() + silence_limit();
  while (std::chrono::steady_clock::now() < until) {
    if (has_ended(c->pid))
      end_job_for(*c, "has died", false);
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  end_job_for(*c, "cannot be reached (" + failure + ")", true);
}

void SpawnedHosts::end_job_for(const Child &c, const std::string &what, bool kill_it) const {
  fmt::print(stderr,
             "poc: host {} (spawned by host {} on {}, pid {}) {}; ending the job, whose calls "
             "to it could never complete\n",
             c.host, engine_.rank(), c.node, c.pid, what);
  std::fflush(stderr);
  // A stopped process ignores the SIGTERM with which Open MPI ends a job,
  // which would then never end.
  if (kill_it)
    kill(c.pid, SIGKILL);
  MPI_Abort(MPI_COMM_WORLD, 1);
  std::abort();
}

std::vector<int> SpawnedHosts::spawn(const std::string &hostname, int count,
                                     std::size_t cache_limit) {
  if (engine_.parent() >= 0)
    throw usage_error("poc: host " + std::to_string(engine_.rank()) +
                      " was spawned and cannot spawn hosts itself (create the process from a "
                      "rank of the job)");
  if (count < 1)
    throw usage_error("poc: spawning " + std::to_string(count) + " hosts");
  if (!hostname.empty() && !resolves(hostname))
    throw usage_error("poc: cannot start a host on '" + hostname +
                      "': the host name does not resolve");
  int base = 0;
  {
    HostLock lk(engine_.progress());
    if (refusing_)
      throw usage_error("poc: the program has ended");
    if (numbers_used_ + count > kSpawnPerParent)
      throw usage_error("poc: a rank can spawn at most " + std::to_string(kSpawnPerParent) +
                        " hosts");
    // Numbers of a failed spawn are not reused: nothing refers to them.
    base = first_spawned_by(engine_.rank()) + numbers_used_;
    numbers_used_ += count;
  }
  std::string program = program_path();
  std::vector<char *> args;
  for (std::size_t i = 1; i < g_arguments.size(); ++i)
    args.push_back(g_arguments[i].data());
  args.push_back(nullptr);
  MPI_Info info = MPI_INFO_NULL;
  if (!hostname.empty()) {
    MPI_Info_create(&info);
    MPI_Info_set(info, "host", hostname.c_str());
  }
  std::vector<int> errors(static_cast<std::size_t>(count), MPI_SUCCESS);
  MPI_Comm inter = MPI_COMM_NULL;
  int rc = MPI_Comm_spawn(program.c_str(), args.data(), count, info, 0, MPI_COMM_SELF, &inter,
                          errors.data());
  if (info != MPI_INFO_NULL)
    MPI_Info_free(&info);
  for (int e : errors)
    if (rc == MPI_SUCCESS && e != MPI_SUCCESS)
      rc = e;
  if (rc != MPI_SUCCESS) {
    char text[MPI_MAX_ERROR_STRING];
    int len = 0;
    MPI_Error_string(rc, text, &len);
    throw std::runtime_error("poc: could not start " + std::to_string(count) + " host(s)" +
                             (hostname.empty() ? std::string() : " on '" + hostname + "'") + ": " +
                             std::string(text, static_cast<std::size_t>(len)));
  }
  auto link = std::make_shared<Link>();
  link->kind = Link::Kind::children;
  link->requests = inter;
  check_mpi(MPI_Comm_dup(inter, &link->blocks), "MPI_Comm_dup");
  link->base = base;
  link->count = count;
  Hello hello{base, engine_.rank(), job_hosts_, static_cast<std::int32_t>(cache_limit)};
  for (int i = 0; i < count; ++i)
    check_mpi(MPI_Send(&hello, sizeof hello, MPI_BYTE, i, kHelloTag, inter), "MPI_Send");
  std::vector<int> hosts;
  std::vector<Child> started;
  for (int i = 0; i < count; ++i) {
    HelloReply reply;
    check_mpi(MPI_Recv(&reply, sizeof reply, MPI_BYTE, i, kHelloTag, inter, MPI_STATUS_IGNORE),
              "MPI_Recv");
    hosts.push_back(base + i);
    started.push_back({base + i, std::string(reply.node, strnlen(reply.node, sizeof reply.node)),
                       static_cast<pid_t>(reply.pid), std::chrono::steady_clock::now(), false});
  }
  engine_.links().add(link);
  HostLock lk(engine_.progress());
  children_.insert(children_.end(), started.begin(), started.end());
  return hosts;
}

Heartbeat::Heartbeat(Engine &engine, int parent)
    : thread_([this, &engine, parent] { beat(engine, parent); }) {}

void Heartbeat::stop() {
  {
    std::lock_guard<std::mutex> lk(mutex_);
    stopping_ = true;
  }
  cv_.notify_one();
  if (thread_.joinable())
    thread_.join();
}

void Heartbeat::beat(Engine &engine, int parent) {
  std::unique_lock<std::mutex> lk(mutex_);
  while (!cv_.wait_for(lk, std::chrono::seconds(1), [&] { return stopping_; })) {
    lk.unlock();
    try {
      engine.sender().send(parent, Kind::heartbeat, NoHead{});
    } catch (const std::exception &e) {
      // The parent's own checks end the job; this host only says why.
      fmt::print(stderr, "poc: host {}: cannot send a heartbeat to host {}: {}\n", engine.rank(),
                 parent, e.what());
      return;
    }
    lk.lock();
  }
}

std::shared_ptr<Link> join_parent(MPI_Comm parent, Hello &hello) {
  auto link = std::make_shared<Link>();
  link->kind = Link::Kind::parent;
  link->requests = parent;
  check_mpi(MPI_Comm_dup(parent, &link->blocks), "MPI_Comm_dup");
  check_mpi(MPI_Recv(&hello, sizeof hello, MPI_BYTE, 0, kHelloTag, parent, MPI_STATUS_IGNORE),
            "MPI_Recv");
  HelloReply reply;
  reply.pid = static_cast<std::int32_t>(getpid());
  gethostname(reply.node, sizeof reply.node - 1);
  check_mpi(MPI_Send(&reply, sizeof reply, MPI_BYTE, 0, kHelloTag, parent), "MPI_Send");
  link->base = hello.parent;
  link->count = 1;
  return link;
}

void disconnect_links(Engine &engine) {
  // Parent and children disconnect their links in the same order (each
  // batch in the order it was spawned), so the collective calls pair up.
  for (auto kind : {Link::Kind::parent, Link::Kind::children}) {
    for (auto &link : engine.links().of(kind)) {
      engine.links().remove(link.get());
      disconnect(*link);
    }
  }
  for (auto kind : {Link::Kind::owned, Link::Kind::accepted}) {
    for (auto &link : engine.links().of(kind)) {
      engine.links().remove(link.get());
      MPI_Comm_free(&link->blocks);
      MPI_Comm_free(&link->requests);
    }
  }
}

} // namespace poc::detail
