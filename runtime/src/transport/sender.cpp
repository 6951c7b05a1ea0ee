#include "sender.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>
#include <utility>

namespace poc::detail {

void Sender::send_owned(int dest, std::vector<std::byte> bytes, const Link *via, LazyHostLock &lock,
                        bool may_wait) {
  std::shared_ptr<Link> owner;
  int to = dest;
  const Link *link = via;
  // The world's link lives as long as the engine: no shared_ptr copy (two
  // atomic updates) on the path of every message to a rank of the job.
  if (!link && links_.world()->covers(dest))
    link = links_.world().get();
  if (!link) {
    owner = links_.route(dest, to);
    link = owner.get();
  }
  if (!link)
    throw std::runtime_error("poc: host " + std::to_string(self_) + " has no route to host " +
                             std::to_string(dest));
  // A relayed message is wrapped in one that names its destination and origin.
  if (to != dest)
    bytes = frame(Kind::relay, RelayHead{dest, self_}, bytes);
  isend_owned(*link, to, std::move(bytes), lock, may_wait && to == dest);
}

void Sender::isend_owned(const Link &link, int host, std::vector<std::byte> bytes,
                         LazyHostLock &lock, bool may_wait) {
  if (bytes.size() > PostedReceives::kSlotBytes) {
    // Nobody waits for this batch: it keeps the bytes until its last send.
    auto batch = std::make_shared<SendBatch>();
    batch->pending = message_sends(link, host, bytes.size());
    batch->owned.push_back(std::move(bytes));
    send_oversized(link, host, batch->owned.back(), batch, lock);
    return;
  }
  Envelope e;
  std::memcpy(&e, bytes.data(), sizeof e);
  const std::span<const std::byte> message = bytes;
  post_message(link, host, message, tag_of(e.kind), std::move(bytes), nullptr, lock, may_wait);
}

void Sender::send_unframed(int dest, int tag, std::span<const std::byte> bytes) {
  const Link &world = *links_.world();
  if (by_ring(world, dest)) {
    LazyHostLock lock(progress_);
    rings_->send(dest - world.base, bytes, lock);
  } else
    peer_failures_.check(MPI_Send(bytes.data(), static_cast<int>(bytes.size()), MPI_BYTE,
                                  dest - world.base, tag, world.requests),
                         "MPI_Send", dest);
}

void Sender::post_message(const Link &link, int host, std::span<const std::byte> bytes, int tag,
                          std::vector<std::byte> owned, const std::shared_ptr<SendBatch> &batch,
                          LazyHostLock &lock, bool may_wait) {
  if (by_ring(link, host)) {
    rings_->send(host - link.base, bytes, lock, may_wait);
    return;
  }
  MPI_Request req;
  peer_failures_.check(MPI_Isend(bytes.data(), static_cast<int>(bytes.size()), MPI_BYTE,
                                 host - link.base, tag, link.requests, &req),
                       "MPI_Isend", host, lock);
  in_flight_.add(req, Completion{std::move(owned), batch, nullptr, nullptr, host}, lock);
}

void Sender::send_batch(int dest, std::span<const std::byte> message,
                        std::span<const Writer::Block> blocks, std::shared_ptr<SendBatch> batch) {
  Envelope e;
  std::memcpy(&e, message.data(), sizeof e);
  const std::shared_ptr<Link> link = links_.to(dest);
  if (!link)
    throw std::logic_error("poc: host " + std::to_string(self_) + " sends to host " +
                           std::to_string(dest) + " without a connection");
  const int to = dest - link->base;
  std::vector<std::pair<const std::byte *, std::size_t>> parts;
  for (const auto &b : blocks) {
    auto *p = static_cast<const std::byte *>(b.data);
    for (std::size_t c = 0, off = 0; c < chunks_of(b.size); ++c, off += kChunk)
      parts.emplace_back(p + off, std::min(kChunk, b.size - off));
  }
  const bool oversized = message.size() > PostedReceives::kSlotBytes;
  {
    HostLock lk(progress_);
    batch->pending += message_sends(*link, dest, message.size()) + static_cast<int>(parts.size());
  }
  // The blocks first: a message through a ring would otherwise reach its
  // receiver before MPI has heard of them, and a receiver that probes for
  // a block's size would find nothing yet.
  MPI_Request req;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    peer_failures_.check(
        MPI_Isend(parts[i].first, static_cast<int>(parts[i].second), MPI_BYTE, to,
                  static_cast<int>(blocks_.tag(e.oob_tag, static_cast<unsigned>(i))), link->blocks,
                  &req),
        "MPI_Isend", dest);
    in_flight_.add(req, Completion{{}, batch, nullptr, nullptr, dest});
  }
  LazyHostLock lock(progress_);
  if (oversized)
    send_oversized(*link, dest, message, batch, lock);
  else
    post_message(*link, dest, message, tag_of(e.kind), {}, batch, lock);
}

void Sender::send_oversized(const Link &link, int host, std::span<const std::byte> bytes,
                            const std::shared_ptr<SendBatch> &batch, LazyHostLock &lock) {
  Envelope inner;
  std::memcpy(&inner, bytes.data(), sizeof inner);
  Envelope e;
  e.kind = Kind::oversized;
  const Writer::Block whole{bytes.data(), bytes.size()};
  blocks_.announce(host, std::span(&whole, 1), e);
  Writer w;
  reserve_frame<OversizedHead>(w);
  seal(w, e, OversizedHead{bytes.size()});
  std::vector<std::byte> announcement = w.take();
  const int to = host - link.base;
  MPI_Request req;
  // The chunks first, as send_batch's blocks.
  for (unsigned c = 0, n = e.oob_count; c < n; ++c) {
    const std::size_t off = std::size_t{c} * kChunk;
    peer_failures_.check(
        MPI_Isend(bytes.data() + off, static_cast<int>(std::min(kChunk, bytes.size() - off)),
                  MPI_BYTE, to, static_cast<int>(blocks_.tag(e.oob_tag, c)), link.blocks, &req),
        "MPI_Isend", host, lock);
    in_flight_.add(req, Completion{{}, batch, nullptr, nullptr, host}, lock);
  }
  // On the tag of the message it stands for: a reply stays a reply.
  const std::span<const std::byte> message = announcement;
  post_message(link, host, message, tag_of(inner.kind), std::move(announcement), batch, lock);
}

std::shared_ptr<SendBatch> Sender::send_sealed(int dest, Writer &w, Sending how) {
  const auto &blocks = w.out_of_band();
  // Without blocks there is nothing to copy: the engine takes the bytes.
  if (blocks.empty() && how != Sending::keep) {
    LazyHostLock lock(progress_);
    send_owned(dest, w.take(), nullptr, lock, how == Sending::may_wait);
    return nullptr;
  }
  auto batch = std::make_shared<SendBatch>();
  const bool all_kept =
      !blocks.empty() &&
      std::all_of(blocks.begin(), blocks.end(), [](const Writer::Block &b) { return b.kept; });
  if ((how == Sending::take || how == Sending::keep) && !all_kept) {
    send_batch(dest, w.bytes(), blocks, batch);
    return batch;
  }
  // The batch owns everything: the owners of kept blocks, copies of the rest.
  batch->kept = w.take_keepers();
  std::vector<Writer::Block> sent;
  for (const auto &b : blocks) {
    if (b.kept) {
      sent.push_back(b);
      continue;
    }
    const auto *data = static_cast<const std::byte *>(b.data);
    batch->owned.emplace_back(data, data + b.size);
    sent.push_back({batch->owned.back().data(), b.size});
  }
  batch->owned.push_back(w.take());
  send_batch(dest, batch->owned.back(), sent, batch);
  return nullptr;
}

} // namespace poc::detail
