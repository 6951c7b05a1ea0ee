#pragma once
/// \file
/// The runtime's wire format: a fixed header in front of every message, and
/// `Message`, a received message whose out-of-band blocks can be pulled into
/// their final destination. Used by the templates of <poc/call.hpp> and
/// <poc/request.hpp>; generated code never names these directly.

#include <poc/process_id.hpp>
#include <poc/serialize.hpp>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <vector>

namespace poc::detail {

/// Where a message arrived (runtime/src/core/engine.hpp).
struct Link;

/// What a message asks for. Requests share one MPI tag, so MPI's
/// non-overtaking rule orders creation, calls and destruction per sender.
enum class Kind : std::uint8_t {
  call = 1,          ///< synchronous call; reply to `token`
  start,             ///< started call; acknowledged cumulatively to `context`
  start_future,      ///< started call with a future; reply to `token`
  create,            ///< create process `target` of class `klass`, ctor `method`
  start_create,      ///< started creation; acknowledged like `start`
  destroy,           ///< run the destructor and end the process; reply to `token`
  reply,             ///< result of call/start_future/create/destroy
  ack,               ///< cumulative acknowledgement of started requests
  barrier_arrive,    ///< a group member reached barrier `method` epoch `aux`
  barrier_release,   ///< everyone arrived at barrier `method` epoch `aux`; with
                     ///< Status::exception: the barrier was abandoned (payload: why)
  shutdown,          ///< rank 0: the program ended; stop serving
  shutdown_done,     ///< a host has no running process left
  finish,            ///< rank 0: every host is done; leave the service loop
  barrier_abandon,   ///< a member of group `method` will not reach barrier epoch `aux`
  activate,          ///< activate persistent process `target` of class `klass`
                     ///< (payload: its address); reply: found (bool)
  persist_create,    ///< create persistent process `target` with ctor `method`
                     ///< (payload: address, then the ctor's arguments)
  checkpoint,        ///< save persistent process `target` now; reply when saved
  relay,             ///< a message for host `target.host` from host `aux`, carried
                     ///< along permanent links (payload: the message)
  connect_request,   ///< (relayed) host `aux` asks to connect; answer connect_port
  connect_port,      ///< (relayed) the port to connect to (payload: its name),
                     ///< already being accepted
  close_connection,  ///< on a connection: its owner closes it
  connection_closed, ///< on a connection: the acceptor sends nothing more on it
  last = connection_closed
};

/// Reply status.
enum class Status : std::uint8_t {
  ok = 0,        ///< payload: copy-backs, then the result
  exception = 1, ///< payload: type name, message (both std::string)
};

/// Fixed header at the front of every message (host byte order: a job runs
/// one executable on one architecture).
struct WireHeader {
  static constexpr std::uint32_t kMagic = 0x31434f50; // "POC1"
  std::uint32_t magic = kMagic;
  Kind kind = Kind::call;
  Status status = Status::ok;
  /// Number of out-of-band MPI messages that follow (blocks are split into
  /// chunks of at most kChunk bytes, each its own message).
  std::uint16_t oob_count = 0;
  /// Tag of the first out-of-band message on the block communicator.
  std::uint32_t oob_tag = 0;
  std::uint32_t reserved = 0;
  ProcessId target;          ///< the process addressed (requests)
  std::uint64_t method = 0;  ///< method id, constructor id, or barrier key
  std::uint64_t klass = 0;   ///< class key (create)
  std::uint64_t token = 0;   ///< reply token on the sender's host, 0 = none
  std::uint64_t context = 0; ///< sender's caller context (acks), or count
  std::uint64_t aux = 0;     ///< slot bytes (create), epoch (barriers)
};
static_assert(sizeof(WireHeader) == 72);

/// Largest single out-of-band MPI message (MPI counts are `int`).
inline constexpr std::size_t kChunk = std::size_t{1} << 30;

/// The out-of-band messages a block of `bytes` travels in: chunks of at
/// most kChunk bytes, and one (empty) for an empty block. Sender and
/// receiver split by this one rule.
constexpr std::size_t chunks_of(std::size_t bytes) noexcept {
  return bytes == 0 ? 1 : (bytes + kChunk - 1) / kChunk;
}

/// A received message. Owns its bytes; `receive` pulls the next out-of-band
/// block of this message straight into the destination. Blocks a decoder did
/// not consume (because decoding failed) are drained when the message is
/// destroyed, so the sender's sends always complete.
class Message final : public BlockSource {
public:
  /// Validates the header: throws protocol_error for a message shorter than
  /// the header, bad magic or an unknown kind. `link`: where it arrived,
  /// kept while the message has out-of-band blocks to receive from it
  /// (null for messages made locally or relayed, which have none).
  Message(int source, std::vector<std::byte> bytes, std::shared_ptr<const Link> link = nullptr);
  ~Message() override;
  Message(const Message &) = delete;
  Message &operator=(const Message &) = delete;

  const WireHeader &header() const noexcept { return header_; }
  /// The bytes after the header.
  std::span<const std::byte> payload() const noexcept;
  /// Host number of the sender.
  int source() const noexcept { return source_; }

  /// Receives the next `n` out-of-band bytes of this message into `dst`.
  /// Throws decode_error if the message announced fewer blocks or the
  /// block's size differs.
  void receive(void *dst, std::size_t n) override;

  /// The size of the next out-of-band block, probed (not received), so the
  /// Reader rejects a corrupted length before it allocates. A block of
  /// kChunk bytes or more spans several chunks whose count the header does
  /// not record: its size is unknown (std::nullopt; Limits::max_block_bytes
  /// bounds it). std::nullopt too if no block is announced or none arrives.
  std::optional<std::size_t> next_block_size() const noexcept override;

private:
  void drain() noexcept;

  int source_;
  std::shared_ptr<const Link> link_;
  std::vector<std::byte> bytes_;
  WireHeader header_;
  unsigned next_oob_ = 0;
  /// next_block_size found that the next block did not arrive in time;
  /// receive then fails at once instead of waiting a second timeout.
  mutable bool next_missing_ = false;
};

} // namespace poc::detail
