#pragma once
// The benchmark's process classes, with clients and servers in the shape
// poc++ generates (docs/runtime.md section 3): the paper's
// Array::ReadIntoServerCache pattern (section 4.3), where clients send
// small started commands to many page servers.

#include <poc/gen/runtime.hpp>

#include <sys/resource.h>

#include <chrono>
#include <cstdint>
#include <vector>

namespace spawn_bench {

/// Stands for the paper's ArrayDevice: queues pages to read into its cache.
class PageServer {
public:
  PageServer() = default;
  /// The command: remember the page (the benchmark measures the messages).
  void ReadIntoCache(std::uint64_t page) {
    ++commands_;
    last_ = page;
  }
  std::uint64_t commands() const { return commands_; }
  /// CPU seconds (user + system) this host process has used so far.
  double cpu_seconds() const {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
           1e-6 * static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec);
  }

private:
  std::uint64_t commands_ = 0;
  std::uint64_t last_ = 0;
};

/// Stands for the paper's FFT process running Array::ReadIntoServerCache.
class Client {
public:
  Client() = default;
  /// Sets this host's connection cache, starts `commands` ReadIntoCache
  /// commands spread round robin over `servers`, waits for all of them
  /// (poc::sync) and returns the seconds that took.
  double ReadIntoServerCache(std::vector<PageServer *> servers, int commands, int cache);
};

struct PageServer_interface {
  static constexpr const char *class_name = "spawn_bench::PageServer";
  enum : std::uint64_t {
    ctor_0 = ::poc::method_id("spawn_bench::PageServer::PageServer()"),
    ReadIntoCache_0 = ::poc::method_id("spawn_bench::PageServer::ReadIntoCache(std::uint64_t)"),
    commands_0 = ::poc::method_id("spawn_bench::PageServer::commands() const"),
    cpu_seconds_0 = ::poc::method_id("spawn_bench::PageServer::cpu_seconds() const"),
  };
};

struct PageServer_client : PageServer_interface {
  static void ReadIntoCache_0_start(PageServer *self, std::uint64_t page) {
    ::poc::Call call(self, PageServer_interface::ReadIntoCache_0);
    call.args(page);
    call.start();
  }
  static std::uint64_t commands_0(const PageServer *self) {
    ::poc::Call call(self, PageServer_interface::commands_0);
    return call.invoke<std::uint64_t>();
  }
  static double cpu_seconds_0(const PageServer *self) {
    ::poc::Call call(self, PageServer_interface::cpu_seconds_0);
    return call.invoke<double>();
  }
};

struct PageServer_server : PageServer_interface {
  static void dispatch(PageServer &self, std::uint64_t method, ::poc::Request &rq) {
    switch (method) {
    case ReadIntoCache_0:
      rq.invoke(self, &PageServer::ReadIntoCache);
      return;
    case commands_0:
      rq.invoke(self, &PageServer::commands);
      return;
    case cpu_seconds_0:
      rq.invoke(self, &PageServer::cpu_seconds);
      return;
    default:
      rq.unknown_method(method);
    }
  }
  static PageServer *construct(std::uint64_t ctor, ::poc::Request &rq) {
    if (ctor != ctor_0)
      rq.unknown_method(ctor);
    return rq.construct<PageServer>();
  }
};

inline const ::poc::ClassRegistration<PageServer, PageServer_server> PageServer_registration{
    "spawn_bench::PageServer"};

struct Client_interface {
  static constexpr const char *class_name = "spawn_bench::Client";
  enum : std::uint64_t {
    ctor_0 = ::poc::method_id("spawn_bench::Client::Client()"),
    ReadIntoServerCache_0 = ::poc::method_id(
        "spawn_bench::Client::ReadIntoServerCache(std::vector<spawn_bench::PageServer*>,int,int)"),
  };
};

struct Client_client : Client_interface {
  static ::poc::future<double> ReadIntoServerCache_0_future(Client *self,
                                                            std::vector<PageServer *> servers,
                                                            int commands, int cache) {
    ::poc::Call call(self, Client_interface::ReadIntoServerCache_0);
    call.args(servers, commands, cache);
    return call.start_future<double>();
  }
};

struct Client_server : Client_interface {
  static void dispatch(Client &self, std::uint64_t method, ::poc::Request &rq) {
    switch (method) {
    case ReadIntoServerCache_0:
      rq.invoke(self, &Client::ReadIntoServerCache);
      return;
    default:
      rq.unknown_method(method);
    }
  }
  static Client *construct(std::uint64_t ctor, ::poc::Request &rq) {
    if (ctor != ctor_0)
      rq.unknown_method(ctor);
    return rq.construct<Client>();
  }
};

inline const ::poc::ClassRegistration<Client, Client_server> Client_registration{
    "spawn_bench::Client"};

// The body that makes calls, as poc++ rewrites it.
inline double Client::ReadIntoServerCache(std::vector<PageServer *> servers, int commands,
                                          int cache) {
  ::poc::set_connection_cache(static_cast<std::size_t>(cache));
  auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < commands; ++i)
    PageServer_client::ReadIntoCache_0_start(servers[static_cast<std::size_t>(i) % servers.size()],
                                             static_cast<std::uint64_t>(i));
  ::poc::sync();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

} // namespace spawn_bench
