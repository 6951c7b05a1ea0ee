#pragma once
/// \file
/// Out-of-band blocks: large contiguous data that travels beside its
/// message on the link's block communicator, each chunk its own MPI message
/// with a tag from a per-destination sequence, sent straight from the
/// sender's memory and received straight into its destination.

#include "in_flight.hpp"
#include "links.hpp"
#include "peer_failures.hpp"
#include "wire.hpp"

#include <poc/serialize.hpp>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <optional>
#include <span>
#include <unordered_map>

namespace poc::detail {

class Blocks {
public:
  /// `self`: this host's number (for reports).
  Blocks(int self, Progress &progress, InFlight &in_flight, PeerFailures &peer_failures);
  Blocks(const Blocks &) = delete;
  Blocks &operator=(const Blocks &) = delete;

  /// This host's number.
  int self() const noexcept { return self_; }

  /// Announces `blocks` in the envelope `e` of a message to `dest`: their
  /// chunk count (chunks_of) and the first of the tags reserved for them.
  /// Throws usage_error beyond 65535 chunks.
  void announce(int dest, std::span<const Writer::Block> blocks, Envelope &e);
  /// Tag of the i-th out-of-band message after `first`.
  std::uint32_t tag(std::uint32_t first, unsigned i) const noexcept {
    return static_cast<std::uint32_t>((std::uint64_t{first} + i) % tag_space_);
  }

  /// Receives one out-of-band message of exactly `n` bytes from host
  /// `source` on `link` with `tag` into `dst`, waiting through the host's
  /// progress; on a thread that runs a request in place (it holds the
  /// poller role, Progress::NoWaiting) by testing the receive itself.
  /// Throws decode_error if its size differs or it does not
  /// arrive within the block timeout (POC_BLOCK_TIMEOUT_MS, default 10 s:
  /// an envelope that announces blocks nobody sends must not stall the
  /// process forever).
  void receive(const Link &link, int source, std::uint32_t tag, void *dst, std::size_t n);

  /// The size of the out-of-band message (`source`, `tag`) once it has
  /// arrived (probing, without receiving it); std::nullopt if it does not
  /// arrive within the block timeout or the probe fails (a failure is
  /// reported as PeerFailures::report does).
  std::optional<std::size_t> probe(const Link &link, int source, std::uint32_t tag) const noexcept;

  /// Receives and discards the out-of-band message (`source`, `tag`) if it
  /// arrives within `timeout`; false if it did not.
  bool discard(const Link &link, int source, std::uint32_t tag,
               std::chrono::milliseconds timeout) noexcept;

  /// How long a receiver waits for an announced block.
  std::chrono::milliseconds timeout() const noexcept { return timeout_; }

private:
  /// Waits through the host's progress (the poller completes `req`); false
  /// if it did not complete by `deadline` (then it is cancelled).
  bool wait_for(MPI_Request req, MPI_Status &st, std::chrono::steady_clock::time_point deadline);
  /// Tests `req` on this thread until it completes; false, cancelled, if it
  /// did not by `deadline`.
  bool test_here(MPI_Request &req, MPI_Status &st, int source,
                 std::chrono::steady_clock::time_point deadline);

  int self_;
  Progress &progress_;
  InFlight &in_flight_;
  PeerFailures &peer_failures_;
  std::uint32_t tag_space_ = 32767;
  std::chrono::milliseconds timeout_{10000};
  std::mutex tags_mu_;
  std::unordered_map<int, std::uint32_t> next_tag_;
};

} // namespace poc::detail
