#include "blocks.hpp"

#include <poc/errors.hpp>

#include <algorithm>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

namespace poc::detail {

Blocks::Blocks(int self, Progress &progress, InFlight &in_flight, PeerFailures &peer_failures)
    : self_(self), progress_(progress), in_flight_(in_flight), peer_failures_(peer_failures) {
  int *tag_ub = nullptr;
  int flag = 0;
  MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &tag_ub, &flag);
  if (flag && tag_ub && *tag_ub > 0)
    tag_space_ = static_cast<std::uint32_t>(std::min(*tag_ub, 1 << 30)) + 1;
  if (const char *t = std::getenv("POC_BLOCK_TIMEOUT_MS"); t && std::atoi(t) > 0)
    timeout_ = std::chrono::milliseconds(std::atoi(t));
}

void Blocks::announce(int dest, std::span<const Writer::Block> blocks, Envelope &e) {
  std::size_t chunks = 0;
  for (const auto &b : blocks)
    chunks += chunks_of(b.size);
  if (chunks > 0xffff)
    throw usage_error("poc: message with more than 65535 out-of-band chunks");
  e.oob_count = static_cast<std::uint16_t>(chunks);
  if (chunks == 0)
    return;
  std::lock_guard<std::mutex> g(tags_mu_);
  std::uint32_t &next = next_tag_[dest];
  e.oob_tag = next % tag_space_;
  next += static_cast<std::uint32_t>(chunks);
}

void Blocks::receive(const Link &link, int source, std::uint32_t tag, void *dst, std::size_t n) {
  MPI_Request req;
  peer_failures_.check(MPI_Irecv(dst, static_cast<int>(n), MPI_BYTE, source - link.base,
                                 static_cast<int>(tag), link.blocks, &req),
                       "MPI_Irecv", source);
  MPI_Status st;
  const auto deadline = std::chrono::steady_clock::now() + timeout_;
  const bool arrived = Progress::NoWaiting::active() ? test_here(req, st, source, deadline)
                                                     : wait_for(req, st, deadline);
  if (!arrived)
    throw decode_error("poc: an out-of-band block announced by rank " + std::to_string(source) +
                       " did not arrive within " + std::to_string(timeout_.count()) + " ms");
  int error_class = MPI_SUCCESS;
  MPI_Error_class(st.MPI_ERROR, &error_class);
  if (error_class != MPI_SUCCESS && error_class != MPI_ERR_TRUNCATE)
    peer_failures_.check(st.MPI_ERROR, "MPI_Irecv", source);
  int count = 0;
  if (st.MPI_ERROR != MPI_SUCCESS)
    throw decode_error("poc: out-of-band block larger than announced (" + std::to_string(n) +
                       " bytes expected)");
  MPI_Get_count(&st, MPI_BYTE, &count);
  if (static_cast<std::size_t>(count) != n)
    throw decode_error("poc: out-of-band block of " + std::to_string(count) + " bytes, " +
                       std::to_string(n) + " expected");
}

bool Blocks::wait_for(MPI_Request req, MPI_Status &st,
                      std::chrono::steady_clock::time_point deadline) {
  bool done = false;
  in_flight_.add(req, Completion{{}, nullptr, &done, &st});
  HostLock lk(progress_);
  progress_.wait_until(lk, [&] { return done || std::chrono::steady_clock::now() > deadline; });
  if (!done)
    in_flight_.cancel_receive(&done, lk);
  return done;
}

bool Blocks::test_here(MPI_Request &req, MPI_Status &st, int source,
                       std::chrono::steady_clock::time_point deadline) {
  // Its sender posted the block with the message, so it is usually on its
  // way: test without sleeping, yielding the core every 64 tests (and
  // reading the clock only then).
  for (unsigned tests = 1;; ++tests) {
    int flag = 0;
    if (const int rc = MPI_Test(&req, &flag, &st); rc != MPI_SUCCESS) {
      // Completed with an error: a block larger than the receive is
      // reported by the caller as such, any other error as its sender's.
      int error_class = MPI_SUCCESS;
      MPI_Error_class(rc, &error_class);
      if (error_class != MPI_ERR_TRUNCATE)
        peer_failures_.check(rc, "MPI_Test", source);
      st.MPI_ERROR = rc;
      return true;
    }
    if (flag) {
      // MPI_Test need not set the status's error field.
      st.MPI_ERROR = MPI_SUCCESS;
      return true;
    }
    if (tests % 64 == 0) {
      if (std::chrono::steady_clock::now() > deadline) {
        MPI_Cancel(&req);
        MPI_Request_free(&req);
        return false;
      }
      std::this_thread::yield();
    }
  }
}

std::optional<std::size_t> Blocks::probe(const Link &link, int source,
                                         std::uint32_t tag) const noexcept {
  const auto start = std::chrono::steady_clock::now();
  const auto until = start + timeout_;
  for (;;) {
    int flag = 0;
    MPI_Status st;
    if (const int rc =
            MPI_Iprobe(source - link.base, static_cast<int>(tag), link.blocks, &flag, &st);
        rc != MPI_SUCCESS) {
      HostLock lk(progress_);
      peer_failures_.report(rc, "MPI_Iprobe", source, lk);
      return std::nullopt;
    }
    if (flag) {
      int count = 0;
      MPI_Get_count(&st, MPI_BYTE, &count);
      return static_cast<std::size_t>(std::max(count, 0));
    }
    const auto now = std::chrono::steady_clock::now();
    if (now > until)
      return std::nullopt;
    // A block is usually on its way (its sender posts it before the
    // message): look again at once for a while, since a sleep lasts far
    // longer than it asks.
    if (now - start < std::chrono::microseconds(200))
      std::this_thread::yield();
    else
      std::this_thread::sleep_for(std::chrono::microseconds(20));
  }
}

bool Blocks::discard(const Link &link, int source, std::uint32_t tag,
                     std::chrono::milliseconds timeout) noexcept {
  auto until = std::chrono::steady_clock::now() + timeout;
  for (;;) {
    int flag = 0;
    MPI_Message msg;
    MPI_Status st;
    if (MPI_Improbe(source - link.base, static_cast<int>(tag), link.blocks, &flag, &msg, &st) !=
        MPI_SUCCESS)
      return false;
    if (flag) {
      int count = 0;
      MPI_Get_count(&st, MPI_BYTE, &count);
      std::vector<std::byte> scratch(static_cast<std::size_t>(std::max(count, 0)));
      MPI_Mrecv(scratch.data(), count, MPI_BYTE, &msg, &st);
      return true;
    }
    if (std::chrono::steady_clock::now() > until)
      return false;
    std::this_thread::sleep_for(std::chrono::microseconds(50));
  }
}

} // namespace poc::detail
