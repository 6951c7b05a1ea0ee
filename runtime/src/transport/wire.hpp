#pragma once
/// \file
/// The runtime's wire format (docs/runtime.md section 10). Every message is
/// an Envelope, then the head of its kind (one fixed struct per kind, so a
/// field means one thing), then a body whose encoding the kind defines.
/// Out-of-band blocks follow as MPI messages of their own, announced by the
/// envelope. A job runs one executable per architecture, so heads travel in
/// host byte order.

#include <poc/process_id.hpp>
#include <poc/serialize/writer.hpp>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <stdexcept>
#include <vector>

namespace poc::detail {

/// What a message is. Requests share one MPI tag, so MPI's non-overtaking
/// rule orders creation, calls and destruction per sender.
enum class Kind : std::uint8_t {
  // Requests (RequestHead; body: arguments). Replied to (ReplyHead) when
  // RequestHead::reply_token is set, else counted and acknowledged when
  // the caller asks (AckQueryHead, AckHead).
  call = 1,       ///< synchronous call of `member`
  start,          ///< started call, acknowledged
  start_future,   ///< started call whose reply fills a future
  create,         ///< create process `target` of class `klass` by constructor `member`
  start_create,   ///< started creation, acknowledged
  destroy,        ///< run the destructor and end the process
  activate,       ///< activate persistent process `target` (body: its address);
                  ///< reply: found (bool)
  persist_create, ///< create persistent process `target` by constructor `member`
                  ///< (body: its address, then the constructor's arguments)
  checkpoint,     ///< save persistent process `target` now; reply when saved
  // Answers.
  reply,     ///< ReplyHead; body: copy-backs then the result, or a RemoteFailure
  ack,       ///< AckHead; body: the RemoteFailures of the acknowledged requests
  ack_query, ///< AckQueryHead; no body: acknowledge once that many have finished
  // Barriers of process groups.
  barrier_arrive,  ///< BarrierArrive; no body
  barrier_release, ///< BarrierRelease; body: the error when it failed
  barrier_abandon, ///< BarrierAbandon; body: the error members will get
  // The end of the job (docs/runtime.md section 8); no head, no body.
  shutdown,      ///< rank 0 (or a parent): the program ended; stop serving
  shutdown_done, ///< a host has no running process left
  finish,        ///< every host is done; leave the service loop
  // The transport's own (section 11).
  relay,             ///< RelayHead; body: the relayed message
  connect_request,   ///< (relayed) the sender asks to connect; no body
  connect_port,      ///< (relayed) body: the name of the port to connect to
  close_connection,  ///< on a connection: its owner closes it; no body
  connection_closed, ///< on a connection: the acceptor sends nothing more on it
  oversized,         ///< OversizedHead; no body: the message is its out-of-band chunks
  heartbeat,         ///< a spawned host to its parent, every second: it still runs; no body
  batch,             ///< no head; body: several messages to one host (BatchFrame)
  last = batch
};

/// MPI tags on the request communicator (kHelloTag: a parent's first
/// message to the hosts it spawned, before either side's engine polls).
enum : int { kRequestTag = 1, kReplyTag = 2, kHelloTag = 3 };

/// The tag a message of kind `k` travels with: replies have their own, so
/// that a misrouted message is recognised.
constexpr int tag_of(Kind k) noexcept { return k == Kind::reply ? kReplyTag : kRequestTag; }

/// True for the kinds RequestHead heads.
constexpr bool is_request(Kind k) noexcept { return k >= Kind::call && k <= Kind::checkpoint; }

/// The front of every message: what the transport needs to deliver it.
struct Envelope {
  static constexpr std::uint32_t kMagic = 0x32434f50; // "POC2"
  std::uint32_t magic = kMagic;
  Kind kind = Kind::call;
  std::uint8_t reserved = 0;
  /// Out-of-band MPI messages that follow (blocks are split into chunks of
  /// at most kChunk bytes, each its own message).
  std::uint16_t oob_count = 0;
  /// Tag of the first of them on the block communicator.
  std::uint32_t oob_tag = 0;
  /// A request's flow number in the sender's trace (POC_TRACE; 0: not
  /// traced), so that the trace links the request's send to its serving.
  std::uint32_t flow = 0;
};
static_assert(sizeof(Envelope) == 16);

/// The head of a request.
struct RequestHead {
  /// The process addressed.
  ProcessId target;
  /// The method (calls) or constructor (creations) id; 0 for the others.
  std::uint64_t member = 0;
  /// The class key (creations and activations); 0 for the others.
  std::uint64_t klass = 0;
  /// Where the reply goes on the sender's host; 0: the request is
  /// acknowledged instead.
  std::uint64_t reply_token = 0;
  /// The caller context on the sender's host that acknowledgements credit.
  std::uint64_t caller = 0;
  static constexpr bool accepts(Kind k) noexcept { return is_request(k); }
};

/// How a request ended.
enum class Status : std::uint8_t {
  ok = 0,     ///< body: copy-backs, then the result
  failed = 1, ///< body: a RemoteFailure
};

struct ReplyHead {
  std::uint64_t token = 0;
  Status status = Status::ok;
  static constexpr bool accepts(Kind k) noexcept { return k == Kind::reply; }
};

/// A cumulative acknowledgement of started requests.
struct AckHead {
  /// The caller context the requests came from.
  std::uint64_t caller = 0;
  /// How many of its requests have finished (executed or refused) since
  /// its last acknowledgement.
  std::uint64_t executed = 0;
  static constexpr bool accepts(Kind k) noexcept { return k == Kind::ack; }
};

/// A caller waits for its started requests to the receiving host: it asks
/// to be acknowledged once `awaited` of them have finished (counted since
/// its last acknowledgement from that host).
struct AckQueryHead {
  /// The caller context the requests came from.
  std::uint64_t caller = 0;
  std::uint64_t awaited = 0;
  static constexpr bool accepts(Kind k) noexcept { return k == Kind::ack_query; }
};

/// A member of `group` reached barrier `epoch`; the group has `members`.
struct BarrierArrive {
  std::uint64_t group = 0;
  std::uint64_t epoch = 0;
  std::uint64_t members = 0;
  static constexpr bool accepts(Kind k) noexcept { return k == Kind::barrier_arrive; }
};

/// Barrier `epoch` of `group` is over for `passes` members on the receiving
/// host: passed, or failed (body: why).
struct BarrierRelease {
  std::uint64_t group = 0;
  std::uint64_t epoch = 0;
  std::uint64_t passes = 0;
  Status status = Status::ok;
  static constexpr bool accepts(Kind k) noexcept { return k == Kind::barrier_release; }
};

/// A member of `group` will not reach barrier `epoch` nor later ones.
struct BarrierAbandon {
  std::uint64_t group = 0;
  std::uint64_t epoch = 0;
  static constexpr bool accepts(Kind k) noexcept { return k == Kind::barrier_abandon; }
};

/// A message for host `dest` from host `origin`, carried along permanent links.
struct RelayHead {
  std::int32_t dest = -1;
  std::int32_t origin = -1;
  static constexpr bool accepts(Kind k) noexcept { return k == Kind::relay; }
};

/// A message larger than the receives posted for the link's messages
/// (PostedReceives::kSlotBytes): its `bytes` follow as the out-of-band
/// chunks this announcement's envelope counts.
struct OversizedHead {
  std::uint64_t bytes = 0;
  static constexpr bool accepts(Kind k) noexcept { return k == Kind::oversized; }
};

/// The kinds whose messages have no head.
struct NoHead {
  static constexpr bool accepts(Kind k) noexcept {
    return k >= Kind::shutdown && k <= Kind::last && k != Kind::relay && k != Kind::oversized;
  }
};

/// Size of the head of kind `k` (0 for NoHead kinds and unknown ones).
constexpr std::size_t head_bytes(Kind k) noexcept {
  if (RequestHead::accepts(k))
    return sizeof(RequestHead);
  if (ReplyHead::accepts(k))
    return sizeof(ReplyHead);
  if (AckHead::accepts(k))
    return sizeof(AckHead);
  if (AckQueryHead::accepts(k))
    return sizeof(AckQueryHead);
  if (BarrierArrive::accepts(k))
    return sizeof(BarrierArrive);
  if (BarrierRelease::accepts(k))
    return sizeof(BarrierRelease);
  if (BarrierAbandon::accepts(k))
    return sizeof(BarrierAbandon);
  if (RelayHead::accepts(k))
    return sizeof(RelayHead);
  if (OversizedHead::accepts(k))
    return sizeof(OversizedHead);
  return 0;
}

/// Where a message's body starts.
template <class Head> constexpr std::size_t body_offset() noexcept {
  if constexpr (std::is_same_v<Head, NoHead>)
    return sizeof(Envelope);
  else
    return sizeof(Envelope) + sizeof(Head);
}

/// Reserves room for the envelope and a `Head` at the front of an empty
/// writer; the body is written after it, and seal() fills the room in.
template <class Head> void reserve_frame(Writer &w) {
  std::byte room[body_offset<Head>()] = {};
  w.write_bytes(room, sizeof room);
}

/// Fills in the room reserve_frame<Head> left in `w`.
template <class Head> void seal(Writer &w, const Envelope &e, const Head &head) {
  if (!Head::accepts(e.kind))
    throw std::logic_error("poc: a message head that does not belong to its kind");
  if (w.size() < body_offset<Head>())
    throw std::logic_error("poc: message without room for its head");
  // The writer owns its buffer; the room was reserved by reserve_frame.
  auto *front = const_cast<std::byte *>(w.bytes().data());
  std::memcpy(front, &e, sizeof e);
  if constexpr (!std::is_same_v<Head, NoHead>)
    std::memcpy(front + sizeof e, &head, sizeof head);
}

/// A whole message of kind `kind` without out-of-band blocks.
template <class Head>
std::vector<std::byte> frame(Kind kind, const Head &head, std::span<const std::byte> body = {}) {
  Envelope e;
  e.kind = kind;
  Writer w;
  reserve_frame<Head>(w);
  if (!body.empty())
    w.write_bytes(body.data(), body.size());
  seal(w, e, head);
  return w.take();
}

/// Largest single out-of-band MPI message (MPI counts are `int`).
inline constexpr std::size_t kChunk = std::size_t{1} << 30;

/// The out-of-band messages a block of `bytes` travels in: chunks of at
/// most kChunk bytes, and one (empty) for an empty block. Sender and
/// receiver split by this one rule.
constexpr std::size_t chunks_of(std::size_t bytes) noexcept {
  return bytes == 0 ? 1 : (bytes + kChunk - 1) / kChunk;
}

} // namespace poc::detail
