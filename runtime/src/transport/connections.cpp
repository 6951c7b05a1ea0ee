// Accepts and acceptor-side disconnects each run on a thread of their own:
// both are collective with a thread of the other host, which may itself be
// waiting in such a call with a third host. One shared helper thread
// serialises them and makes cycles (measured: client X disconnecting from
// server A, whose helper accepts client Y, who disconnects from server B,
// whose helper accepts client X). Each accept uses a port of its own, so a
// connection can never be matched with another host's accept.

#include "connections.hpp"

#include <fmt/format.h>
#include <poc/errors.hpp>

#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <vector>

namespace poc::detail {
namespace {

/// How long a host waits for the port of a host it asked to connect to.
constexpr auto kPortTimeout = std::chrono::seconds(30);

std::string mpi_error_text(int rc) {
  char text[MPI_MAX_ERROR_STRING];
  int len = 0;
  MPI_Error_string(rc, text, &len);
  return std::string(text, static_cast<std::size_t>(len));
}

std::shared_ptr<Link> make_connection(Link::Kind kind, MPI_Comm inter, int peer) {
  auto link = std::make_shared<Link>();
  link->kind = kind;
  link->requests = inter;
  check_mpi(MPI_Comm_dup(inter, &link->blocks), "MPI_Comm_dup");
  link->base = peer;
  link->count = 1;
  return link;
}

} // namespace

void disconnect(Link &link) {
  MPI_Comm_disconnect(&link.blocks);
  MPI_Comm_disconnect(&link.requests);
}

Connections::Connections(Engine &engine) : engine_(engine), limit_(kDefaultLimit) {
  if (const char *env = std::getenv("POC_CONNECTION_CACHE"); env && *env)
    limit_ = static_cast<std::size_t>(std::strtoul(env, nullptr, 10));
}

Connections::~Connections() { stop(); }

void Connections::set_limit(std::size_t n) {
  HostLock lk(engine_.progress());
  limit_ = n;
}

std::size_t Connections::limit() const { return limit_; }

void Connections::acquire(int dest, bool awaits_reply) {
  if (engine_.links().permanently_linked(dest))
    return;
  HostLock lk(engine_.progress());
  Peer &p = peers_[dest]; // references into an unordered_map stay valid
  bool was_idle = p.state == Peer::State::open && p.pins == 0;
  // Pinned while connecting, so that no other thread closes it meanwhile.
  ++p.pins;
  p.last_use = ++clock_;
  try {
    for (;;) {
      if (p.state == Peer::State::open) {
        // Uncached: a connection left idle by an earlier request is not
        // reused; this request gets a connection of its own.
        if (limit_ == 0 && was_idle && unused(p)) {
          was_idle = false;
          close(lk, dest, p);
          continue;
        }
        break;
      }
      if (p.state == Peer::State::closed) {
        connect(lk, dest, p);
        continue;
      }
      // Another thread is connecting or closing: wait for it.
      engine_.progress().wait_until(
          lk, [&] { return p.state == Peer::State::open || p.state == Peer::State::closed; });
    }
    evict(lk, dest);
  } catch (...) {
    --p.pins;
    throw;
  }
  if (!awaits_reply)
    --p.pins;
}

void Connections::release(int dest, HostLock &lk) {
  if (peers_.empty())
    return;
  auto it = peers_.find(dest);
  if (it == peers_.end() || it->second.pins == 0)
    return;
  --it->second.pins;
  engine_.progress().notify(lk);
}

void Connections::connect(HostLock &lk, int dest, Peer &p) {
  p.state = Peer::State::requested;
  p.port_arrived = false;
  auto fail = [&](const std::string &why) {
    p.state = Peer::State::closed;
    engine_.progress().notify(lk);
    throw std::runtime_error("poc: host " + std::to_string(engine_.rank()) +
                             " cannot connect to host " + std::to_string(dest) + ": " + why);
  };
  if (refusing_)
    fail("the program has ended");
  engine_.sender().send(dest, Kind::connect_request, NoHead{}, {}, lk);
  auto deadline = std::chrono::steady_clock::now() + kPortTimeout;
  engine_.progress().wait_until(
      lk, [&] { return p.port_arrived || std::chrono::steady_clock::now() > deadline; });
  if (!p.port_arrived)
    fail("it did not answer within " + std::to_string(kPortTimeout.count()) + " s");
  std::string port = p.port;
  lk.unlock();
  MPI_Comm inter = MPI_COMM_NULL;
  int rc = MPI_Comm_connect(port.c_str(), MPI_INFO_NULL, 0, MPI_COMM_SELF, &inter);
  std::shared_ptr<Link> link;
  std::string error;
  if (rc == MPI_SUCCESS) {
    try {
      link = make_connection(Link::Kind::owned, inter, dest);
      engine_.links().add(link);
    } catch (const std::exception &e) {
      error = e.what();
    }
  } else {
    error = "MPI_Comm_connect failed: " + mpi_error_text(rc);
  }
  lk.lock();
  if (!link)
    fail(error);
  p.link = std::move(link);
  p.state = Peer::State::open;
  ++opened_;
  engine_.progress().notify(lk);
}

void Connections::close(HostLock &lk, int dest, Peer &p) {
  p.state = Peer::State::closing;
  p.close_confirmed = false;
  p.link->closing = true;
  engine_.sender().send(dest, Kind::close_connection, NoHead{}, {}, lk, p.link.get());
  // The acceptor's confirmation is the last message it sends on the link.
  engine_.progress().wait_until(lk, [&] { return p.close_confirmed; });
  std::shared_ptr<Link> link = std::move(p.link);
  engine_.links().remove(link.get());
  lk.unlock();
  disconnect(*link);
  lk.lock();
  p.state = Peer::State::closed;
  ++closed_;
  engine_.progress().notify(lk);
}

void Connections::evict(HostLock &lk, int keep) {
  for (;;) {
    std::size_t idle = 0;
    int oldest = -1;
    std::uint64_t oldest_use = 0;
    for (auto &[dest, p] : peers_) {
      if (dest == keep || p.state != Peer::State::open || p.pins != 0 || !unused(p))
        continue;
      ++idle;
      if (oldest < 0 || p.last_use < oldest_use) {
        oldest = dest;
        oldest_use = p.last_use;
      }
    }
    if (idle <= limit_ || oldest < 0)
      return;
    close(lk, oldest, peers_[oldest]);
  }
}

void Connections::route(const Message &m, const std::shared_ptr<Link> &link, HostLock &lk) {
  switch (m.kind()) {
  case Kind::connect_request:
    return on_connect_request(m.source(), lk);
  case Kind::connect_port:
    try {
      Reader r(m.body());
      auto port = r.read<std::string>();
      r.expect_end();
      return on_connect_port(m.source(), std::move(port), lk);
    } catch (const std::exception &e) {
      fmt::print(stderr, "poc: host {}: malformed port message from host {}: {}\n", engine_.rank(),
                 m.source(), e.what());
      return;
    }
  case Kind::close_connection:
    return on_close(link, lk);
  case Kind::connection_closed:
    return on_closed(link, lk);
  default:
    throw std::logic_error("poc: a message for the connections that is none of theirs");
  }
}

void Connections::refuse_new(HostLock &) { refusing_ = true; }

void Connections::on_connect_request(int origin, HostLock &lk) {
  char name[MPI_MAX_PORT_NAME] = {};
  int rc = MPI_Open_port(MPI_INFO_NULL, name);
  if (rc != MPI_SUCCESS) {
    fmt::print(stderr, "poc: host {}: MPI_Open_port failed: {}\n", engine_.rank(),
               mpi_error_text(rc));
    return; // the asker times out with a clear error
  }
  std::string port = name;
  post(Job{origin, port, nullptr});
  Writer body;
  body.write(port);
  engine_.sender().send(origin, Kind::connect_port, NoHead{}, body.bytes(), lk);
}

void Connections::on_connect_port(int origin, std::string port, HostLock &lk) {
  auto it = peers_.find(origin);
  if (it == peers_.end() || it->second.state != Peer::State::requested)
    return;
  it->second.port = std::move(port);
  it->second.port_arrived = true;
  engine_.progress().notify(lk);
}

void Connections::on_close(const std::shared_ptr<Link> &link, HostLock &lk) {
  if (!link || link->kind != Link::Kind::accepted)
    return;
  link->closing = true;
  engine_.links().remove(link.get());
  engine_.sender().send(link->base, Kind::connection_closed, NoHead{}, {}, lk, link.get());
  post(Job{-1, {}, link});
}

void Connections::on_closed(const std::shared_ptr<Link> &link, HostLock &lk) {
  for (auto &[dest, p] : peers_)
    if (p.link == link) {
      p.close_confirmed = true;
      engine_.progress().notify(lk);
    }
}

void Connections::close_all(std::chrono::milliseconds patience) {
  HostLock lk(engine_.progress());
  auto deadline = std::chrono::steady_clock::now() + patience;
  for (auto &[dest, p] : peers_) {
    engine_.progress().wait_until(
        lk, [&] { return p.state == Peer::State::open || p.state == Peer::State::closed; });
    if (p.state != Peer::State::open)
      continue;
    engine_.progress().wait_until(
        lk, [&] { return p.pins == 0 || std::chrono::steady_clock::now() > deadline; });
    close(lk, dest, p);
  }
}

void Connections::post(Job job) {
  std::lock_guard<std::mutex> g(helpers_mu_);
  if (stop_)
    return;
  // Reap the helpers that have finished.
  std::erase_if(helpers_, [](Helper &h) {
    if (!h.done->load())
      return false;
    h.thread.join();
    return true;
  });
  auto done = std::make_shared<std::atomic<bool>>(false);
  helpers_.push_back(Helper{std::thread([this, job = std::move(job), done] {
                              run(job);
                              done->store(true);
                            }),
                            done});
}

void Connections::run(const Job &job) {
  if (job.link) {
    // A request that arrived on the link may still have out-of-band blocks
    // to read from it (its process has not started it yet): disconnect
    // once no message holds the link any more.
    while (job.link.use_count() > 1)
      std::this_thread::sleep_for(std::chrono::microseconds(100));
    disconnect(*job.link);
    return;
  }
  MPI_Comm inter = MPI_COMM_NULL;
  int rc = MPI_Comm_accept(job.port.c_str(), MPI_INFO_NULL, 0, MPI_COMM_SELF, &inter);
  MPI_Close_port(job.port.c_str());
  try {
    if (rc != MPI_SUCCESS)
      throw std::runtime_error("MPI_Comm_accept failed: " + mpi_error_text(rc));
    engine_.links().add(make_connection(Link::Kind::accepted, inter, job.origin));
  } catch (const std::exception &e) {
    fmt::print(stderr, "poc: host {}: connection from host {} failed: {}\n", engine_.rank(),
               job.origin, e.what());
  }
}

void Connections::stop() {
  std::vector<Helper> helpers;
  {
    std::lock_guard<std::mutex> g(helpers_mu_);
    stop_ = true;
    helpers.swap(helpers_);
  }
  for (auto &h : helpers)
    h.thread.join();
}

} // namespace poc::detail
