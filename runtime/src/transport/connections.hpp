#pragma once
/// \file
/// The connection cache of one host (docs/runtime.md section 11). Hosts
/// that share no permanent link (world, parent, children) talk over a
/// connection made through an MPI port. The host that needs one asks the
/// other, along the relay path, to accept; the other opens a port, posts
/// MPI_Comm_accept on a helper thread and answers with the port's name;
/// the asker connects. Connections stay open while requests sent over them
/// wait for their replies; at most `limit` idle ones
/// stay open beyond that, least recently used closed first, and a closed
/// one is reopened on the next request. Limit 0 reproduces the paper's
/// prototype: every request that finds its connection idle reconnects.

#include "engine.hpp"

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

namespace poc::detail {

class Connections {
public:
  /// The limit comes from POC_CONNECTION_CACHE (default kDefaultLimit).
  explicit Connections(Engine &engine);
  ~Connections();
  Connections(const Connections &) = delete;
  Connections &operator=(const Connections &) = delete;

  static constexpr std::size_t kDefaultLimit = 64;

  /// Idle connections kept open (0: close each as soon as it is idle).
  void set_limit(std::size_t n);
  std::size_t limit() const;

  /// Before a request to `dest` is sent (mutex not held): returns once a
  /// link reaches `dest`, connecting if needed. With `awaits_reply` the
  /// request keeps the connection in use until release (its reply
  /// may carry out-of-band blocks, which only a link can); a started
  /// call's acknowledgement is a control message and needs no connection
  /// (it is relayed if the connection has been closed meanwhile). Throws
  /// std::runtime_error if no connection can be made.
  void acquire(int dest, bool awaits_reply);
  /// The reply of a request to `dest` arrived.
  void release(int dest, HostLock &lk);

  /// True for the kinds of message route handles.
  static constexpr bool handles(Kind k) noexcept {
    return k == Kind::connect_request || k == Kind::connect_port || k == Kind::close_connection ||
           k == Kind::connection_closed;
  }
  /// Handles a message of one of those kinds that arrived on `link` (the
  /// router passes them on).
  void route(const Message &m, const std::shared_ptr<Link> &link, HostLock &lk);

  /// The job is ending: no new connection is made.
  void refuse_new(HostLock &lk);

  /// End of the job (mutex not held): closes every connection this host
  /// made, after waiting up to `patience` for their outstanding requests.
  void close_all(std::chrono::milliseconds patience);
  /// Joins the helper threads (after every host has closed its connections).
  void stop();

  /// Connections this host opened and closed so far.
  std::uint64_t opened() const noexcept { return opened_; }
  std::uint64_t closed() const noexcept { return closed_; }

private:
  struct Peer {
    enum class State { closed, requested, open, closing };
    State state = State::closed;
    std::string port;
    bool port_arrived = false;
    bool close_confirmed = false;
    std::shared_ptr<Link> link;
    /// Requests sent over the connection whose replies have not arrived.
    std::uint64_t pins = 0;
    std::uint64_t last_use = 0;
  };
  /// Work for a helper thread: accept a connection from `origin` on
  /// `port`, or disconnect `link`.
  struct Job {
    int origin = -1;
    std::string port;
    std::shared_ptr<Link> link;
  };
  struct Helper {
    std::thread thread;
    std::shared_ptr<std::atomic<bool>> done;
  };

  /// Host `origin` asks to connect; the port to connect to arrived; the
  /// owner of `link` closes it; the acceptor of `link` confirmed the close.
  void on_connect_request(int origin, HostLock &lk);
  void on_connect_port(int origin, std::string port, HostLock &lk);
  void on_close(const std::shared_ptr<Link> &link, HostLock &lk);
  void on_closed(const std::shared_ptr<Link> &link, HostLock &lk);

  void connect(HostLock &lk, int dest, Peer &p);
  void close(HostLock &lk, int dest, Peer &p);
  /// Closes least recently used idle connections (not `keep`'s) beyond the limit.
  void evict(HostLock &lk, int keep);
  /// True if no message still reads out-of-band blocks from the link.
  static bool unused(const Peer &p) { return p.link.use_count() <= 2; }
  /// Runs `job` on a thread of its own (see the file comment of
  /// connections.cpp for why not on one shared helper).
  void post(Job job);
  void run(const Job &job);

  Engine &engine_;
  std::size_t limit_;
  /// Guarded by the host mutex.
  std::unordered_map<int, Peer> peers_;
  std::uint64_t clock_ = 0;
  bool refusing_ = false;
  std::uint64_t opened_ = 0;
  std::uint64_t closed_ = 0;

  std::mutex helpers_mu_;
  std::vector<Helper> helpers_;
  bool stop_ = false;
};

/// Disconnects `link`'s two communicators (collective with the other side).
void disconnect(Link &link);

} // namespace poc::detail
