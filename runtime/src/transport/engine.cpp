#include "engine.hpp"
#include "batch.hpp"
#include "call_probes.hpp"

#include <fmt/format.h>
#include <poc/errors.hpp>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>
#include <thread>

namespace poc::detail {

namespace {

int world_rank() {
  int rank = 0;
  check_mpi(MPI_Comm_rank(MPI_COMM_WORLD, &rank), "MPI_Comm_rank");
  return rank;
}

} // namespace

Engine::Engine(int world_base, int parent)
    : self_(world_base + world_rank()), parent_(parent), peer_failures_(self_, progress_),
      links_(world_base, self_, parent), in_flight_(progress_, peer_failures_),
      blocks_(self_, progress_, in_flight_, peer_failures_),
      rings_(SharedRings::on_node_of(MPI_COMM_WORLD, progress_)),
      sender_(self_, progress_, links_, blocks_, in_flight_, peer_failures_, rings_.get()) {
  progress_.set_poll([this] { return poll(); });
}

bool Engine::poll() noexcept {
  try {
    return poll_once();
  } catch (const std::exception &e) {
    fmt::print(stderr, "poc: host {}: {}\n", self_, e.what());
    return true;
  }
}

bool Engine::poll_once() {
  struct Arrived {
    int source;
    int tag;
    std::vector<std::byte> bytes;
    std::shared_ptr<Link> link;
  };
  bool got = false;
  int source = 0, tag = 0;
  // When the world is on one node, its messages all come through the
  // rings: its posted receives are not tested (no MPI call).
  const bool world_by_rings = rings_ && rings_->cover_world();
  if (links_.world_only()) {
    // A job without spawned hosts has only its world link: no lock, no list.
    auto bytes = world_by_rings ? std::nullopt : receive_from(*links_.world(), source, tag);
    if (bytes) {
      got = true;
      deliver(source, tag, std::move(*bytes), links_.world());
    }
  } else {
    // At most one message per link per round, so no link starves the
    // others; delivered after the table is unlocked (the router may add or
    // remove links).
    thread_local std::vector<Arrived> arrived;
    arrived.clear();
    links_.for_each([&](const std::shared_ptr<Link> &l) {
      if (world_by_rings && l == links_.world())
        return;
      if (auto bytes = receive_from(*l, source, tag))
        arrived.push_back({source, tag, std::move(*bytes), l});
    });
    got = !arrived.empty();
    for (auto &a : arrived)
      deliver(a.source, a.tag, std::move(a.bytes), a.link);
    arrived.clear();
  }
  if (rings_) {
    const std::shared_ptr<Link> &world = links_.world();
    got |= rings_->receive([&](int rank, std::span<const std::byte> message) {
      deliver_from_ring(world->base + rank, message);
    });
    if (rings_->queued())
      got |= rings_->move_queued();
  }
  if (!in_flight_.empty())
    in_flight_.test();
  return got;
}

void Engine::deliver_from_ring(int source, std::span<const std::byte> message) {
  Envelope e;
  if (message.size() >= sizeof e) {
    std::memcpy(&e, message.data(), sizeof e);
    if (e.kind == Kind::reply)
      POC_PROBE(reply_polled);
    else
      POC_PROBE(request_polled);
    // A batch is unpacked straight from the ring.
    if (e.magic == Envelope::kMagic && e.kind == Kind::batch)
      return deliver_batch(source, message.subspan(sizeof e), links_.world());
  }
  // A ring carries no tag to check the message's kind against.
  deliver(source, std::nullopt, std::vector<std::byte>(message.begin(), message.end()),
          links_.world());
}

void Engine::deliver_batch(int source, std::span<const std::byte> body,
                           const std::shared_ptr<Link> &link) {
  std::vector<std::unique_ptr<Message>> messages;
  // One copy of the batch's bytes, shared by its messages.
  auto storage = std::make_shared<const std::vector<std::byte>>(body.begin(), body.end());
  try {
    BatchFrame::unpack(*storage, [&](std::span<const std::byte> bytes) {
      std::unique_ptr<Message> m;
      try {
        m = std::make_unique<Message>(source, storage, bytes, &blocks_, link);
      } catch (const std::exception &e) {
        return report_malformed(source, e);
      }
      // What a batch carries is sent alone, never a relay, an oversized
      // announcement or another batch.
      if (m->kind() == Kind::relay || m->kind() == Kind::oversized || m->kind() == Kind::batch)
        fmt::print(stderr, "poc: host {}: dropped a message of kind {} from a batch of host {}\n",
                   self_, static_cast<int>(m->kind()), source);
      else
        messages.push_back(std::move(m));
    });
  } catch (const std::exception &e) {
    fmt::print(stderr, "poc: host {}: dropped the rest of a batch from host {}: {}\n", self_,
               source, e.what());
  }
  if (!messages.empty())
    router_(messages, link);
}

std::optional<std::vector<std::byte>> Engine::receive_from(const Link &link, int &source,
                                                           int &tag) {
  std::optional<PostedReceives::Arrival> a = link.posted->next();
  if (!a)
    return std::nullopt;
  source = link.base + a->rank;
  tag = a->tag;
  if (tag == tag_of(Kind::reply))
    POC_PROBE(reply_polled);
  else
    POC_PROBE(request_polled);
  if (a->error != MPI_SUCCESS) {
    // A failed receive from a host that died is that host's death; any
    // other is reported, and the message is lost.
    HostLock lk(progress_);
    peer_failures_.report(a->error, "a receive", source, lk);
    return std::nullopt;
  }
  return std::move(a->bytes);
}

std::vector<std::byte> Engine::receive_oversized(Message &announcement, const Link &link) {
  announcement.blocks_taken();
  const OversizedHead head = announcement.head<OversizedHead>();
  const Envelope &e = announcement.envelope();
  if (e.oob_count != chunks_of(head.bytes))
    throw protocol_error("poc: an oversized message of " + std::to_string(head.bytes) +
                         " bytes announced in " + std::to_string(e.oob_count) + " chunks");
  std::vector<std::byte> bytes(head.bytes);
  std::vector<MPI_Request> chunks(e.oob_count, MPI_REQUEST_NULL);
  for (unsigned c = 0; c < e.oob_count; ++c) {
    const std::size_t off = std::size_t{c} * kChunk;
    peer_failures_.check(
        MPI_Irecv(bytes.data() + off, static_cast<int>(std::min(kChunk, bytes.size() - off)),
                  MPI_BYTE, announcement.source() - link.base,
                  static_cast<int>(blocks_.tag(e.oob_tag, c)), link.blocks, &chunks[c]),
        "MPI_Irecv", announcement.source());
  }
  const auto deadline = std::chrono::steady_clock::now() + blocks_.timeout();
  for (;;) {
    int done = 0;
    peer_failures_.check(
        MPI_Testall(static_cast<int>(chunks.size()), chunks.data(), &done, MPI_STATUSES_IGNORE),
        "MPI_Testall", announcement.source());
    if (done)
      return bytes;
    if (std::chrono::steady_clock::now() > deadline) {
      for (MPI_Request &r : chunks) {
        if (r == MPI_REQUEST_NULL)
          continue;
        MPI_Cancel(&r);
        MPI_Wait(&r, MPI_STATUS_IGNORE);
      }
      throw decode_error("poc: the chunks of an oversized message from host " +
                         std::to_string(announcement.source()) + " did not arrive within " +
                         std::to_string(blocks_.timeout().count()) + " ms");
    }
  }
}

std::unique_ptr<Message> Engine::parse(int source, std::vector<std::byte> bytes,
                                       const std::shared_ptr<Link> &link, std::optional<int> tag) {
  try {
    auto m = std::make_unique<Message>(source, std::move(bytes), &blocks_, link);
    // An oversized announcement travels on the tag of the message it stands for.
    if (tag && m->kind() != Kind::oversized && *tag != tag_of(m->kind()))
      throw protocol_error("poc: message kind " + std::to_string(static_cast<int>(m->kind())) +
                           " on the wrong tag");
    if (!link &&
        (m->kind() == Kind::relay || m->kind() == Kind::oversized || m->kind() == Kind::batch))
      throw protocol_error("poc: a relayed message that is itself a relay, oversized or a batch");
    return m;
  } catch (const std::exception &e) {
    report_malformed(source, e);
    return nullptr;
  }
}

void Engine::report_malformed(int source, const std::exception &e) {
  fmt::print(stderr, "poc: host {}: dropped a malformed message from host {}: {}\n", self_, source,
             e.what());
}

void Engine::deliver(int source, std::optional<int> tag, std::vector<std::byte> bytes,
                     const std::shared_ptr<Link> &link) {
  std::unique_ptr<Message> m = parse(source, std::move(bytes), link, tag);
  if (m && m->kind() == Kind::reply)
    POC_PROBE(reply_parsed);
  else if (m)
    POC_PROBE(request_parsed);
  if (m && m->kind() == Kind::oversized) {
    try {
      m = parse(source, receive_oversized(*m, *link), link, tag);
      if (m && m->kind() == Kind::oversized)
        throw protocol_error("poc: an oversized announcement stands for another");
    } catch (const std::exception &e) {
      fmt::print(stderr, "poc: host {}: dropped an oversized message from host {}: {}\n", self_,
                 source, e.what());
      return;
    }
  }
  if (m && m->kind() == Kind::relay) {
    const RelayHead relay = m->head<RelayHead>();
    auto body = m->body();
    if (relay.dest != self_) {
      int hop = 0;
      if (std::shared_ptr<Link> next = links_.route(relay.dest, hop))
        sender_.send_owned(hop, frame(Kind::relay, relay, body), next.get());
      else
        fmt::print(stderr, "poc: host {}: no route to host {} for a relayed message\n", self_,
                   relay.dest);
      return;
    }
    // The relayed message itself: it never has out-of-band blocks, and
    // travelled on the request tag whatever its kind.
    m = parse(relay.origin, std::vector<std::byte>(body.begin(), body.end()), nullptr,
              std::nullopt);
  }
  if (m && m->kind() == Kind::batch)
    return deliver_batch(m->source(), m->body(), link);
  if (m)
    router_(std::span(&m, 1), link);
}

void Engine::flush(std::chrono::milliseconds timeout) {
  auto until = std::chrono::steady_clock::now() + timeout;
  while ((!in_flight_.empty() || (rings_ && rings_->queued())) &&
         std::chrono::steady_clock::now() < until) {
    poll_once();
    std::this_thread::sleep_for(std::chrono::microseconds(100));
  }
  in_flight_.cancel_all();
}

} // namespace poc::detail
