// Malformed, truncated and oversized messages injected as raw bytes
// (through the same-node rings, or with POC_SHM_RINGS=0 through MPI): the
// receiver reports them (stderr, and an error reply when the header names
// a caller) and keeps serving; nothing crashes or hangs. A malformed batch
// delivers the well-formed messages before its fault.

#include "check.hpp"
#include "counter.hpp"

#include "process/host.hpp"
#include "transport/batch.hpp"

#include <poc/gen/runtime.hpp>

#include <mpi.h>

#include <cstdlib>
#include <cstring>

using demo::Counter;
using demo::Counter_client;
using C = demo::Counter_interface;
namespace d = poc::detail;

namespace {

/// Sends raw bytes the way the runtime's messages go to `dest`.
void send_raw(int dest, int tag, const std::vector<std::byte> &bytes) {
  d::host().engine().sender().send_unframed(dest, tag, bytes);
}

/// The message `bytes` with its envelope announcing `oob_count`
/// out-of-band blocks from tag 12345 on.
std::vector<std::byte> announcing(std::vector<std::byte> bytes, std::uint16_t oob_count) {
  d::Envelope e;
  std::memcpy(&e, bytes.data(), sizeof e);
  e.oob_count = oob_count;
  e.oob_tag = 12345;
  std::memcpy(bytes.data(), &e, sizeof e);
  return bytes;
}

/// A request of `kind` with `head` and `body`, announcing `oob_count`
/// out-of-band blocks.
std::vector<std::byte> request(d::Kind kind, const d::RequestHead &head,
                               const std::vector<std::byte> &body, std::uint16_t oob_count = 0) {
  return announcing(d::frame(kind, head, body), oob_count);
}

/// A reply slot on this host for a hand-made request to `target`.
std::shared_ptr<d::ReplySlot> reply_slot(const poc::ProcessId &target) {
  return d::host().callers().new_reply_slot(target.host, 0);
}

/// Sends a call with a hand-made body and returns what the caller sees.
void raw_call(const poc::ProcessId &target, std::uint64_t method,
              const std::vector<std::byte> &body, std::uint16_t oob_count = 0) {
  auto slot = reply_slot(target);
  send_raw(target.host, d::kRequestTag,
           request(d::Kind::call, {target, method, 0, slot->token, 0}, body, oob_count));
  d::reply_take(*slot);
}

std::vector<std::byte> bytes(std::initializer_list<int> v) {
  std::vector<std::byte> out;
  for (int b : v)
    out.push_back(static_cast<std::byte>(b));
  return out;
}

int body() {
  Counter *c = Counter_client::create_0("m1", 7);
  poc::ProcessId id = poc::remote_id(c);

  check::section("garbage without a header is dropped", [&] {
    send_raw(id.host, d::kRequestTag, bytes({1, 2, 3}));
    std::vector<std::byte> junk(sizeof(d::Envelope) + sizeof(d::RequestHead), std::byte{0x5a});
    send_raw(id.host, d::kRequestTag, junk);
    auto unknown = d::frame(d::Kind::shutdown, d::NoHead{});
    unknown[4] = std::byte{200}; // the envelope's kind
    send_raw(id.host, d::kRequestTag, unknown);
    // A call shorter than its head.
    auto short_call = d::frame(d::Kind::shutdown, d::NoHead{});
    short_call[4] = static_cast<std::byte>(d::Kind::call);
    send_raw(id.host, d::kRequestTag, short_call);
    // A call on the reply tag.
    send_raw(id.host, d::kReplyTag, request(d::Kind::call, {id, C::get_0, 0, 0, 0}, {}));
    CHECK(Counter_client::get_0(c) == 7);
  });

  check::section("truncated arguments give an error reply", [&] {
    CHECK(check::throws<poc::remote_error>([&] { raw_call(id, C::add_0, bytes({1, 0})); },
                                           "decode_error"));
    CHECK(Counter_client::add_0(c, 1) == 8);
  });

  check::section("trailing bytes give an error reply", [&] {
    CHECK(check::throws<poc::remote_error>(
        [&] { raw_call(id, C::add_0, bytes({1, 0, 0, 0, 9, 9})); }, "decode_error"));
    CHECK(Counter_client::get_0(c) == 8);
  });

  check::section("a huge length prefix is refused before allocating", [&] {
    // fail(std::string) with a string length of 2^40 (LEB128).
    CHECK(check::throws<poc::remote_error>(
        [&] { raw_call(id, C::fail_0, bytes({0x80, 0x80, 0x80, 0x80, 0x80, 0x20})); },
        "decode_error"));
    // An element count of 2^60 for an array parameter.
    poc::Writer w;
    w.write(std::uint8_t{3});
    w.write(std::uint64_t{1} << 60);
    auto p = w.take();
    CHECK(check::throws<poc::remote_error>([&] { raw_call(id, C::poke_0, p); }, "decode_error"));
    CHECK(Counter_client::get_0(c) == 8);
  });

  check::section("announced out-of-band blocks that never come time out", [&] {
    // A vector of 2^20 doubles out of band, first: checksum, which runs
    // where it arrives (the poller tests the block's receive itself), then
    // checksum_after_self_call, which is queued for a pool thread (that
    // waits through the poller); neither reads further than the vector.
    std::vector<double> big(std::size_t{1} << 20);
    for (std::uint64_t method : {C::checksum_0, C::checksum_after_self_call_0}) {
      poc::Writer w;
      w.write(big); // records the elements as an out-of-band block, which is never sent
      CHECK(w.out_of_band().size() == 1);
      CHECK(check::throws<poc::remote_error>([&] { raw_call(id, method, w.take(), 1); },
                                             "did not arrive"));
      CHECK(Counter_client::get_0(c) == 8);
    }
  });

  check::section("requests for unknown processes and classes are refused", [&] {
    poc::ProcessId ghost{id.host, poc::host_rank(), 999999};
    CHECK(check::throws<poc::remote_error>([&] { raw_call(ghost, C::get_0, {}); }, "no process"));
    poc::ProcessId unborn{id.host, poc::host_rank(), 999998};
    auto slot = reply_slot(unborn);
    send_raw(id.host, d::kRequestTag,
             request(d::Kind::create, {unborn, C::ctor_0, 42, slot->token, 0}, {}));
    CHECK(check::throws<poc::remote_error>([&] { d::reply_take(*slot); }, "no class"));
    CHECK(Counter_client::get_0(c) == 8);
  });

  check::section("a request that overtakes its creation waits for it", [&] {
    // An id whose creator is another rank: a call for it may legitimately
    // arrive before the creation (the reference travelled faster).
    poc::ProcessId early{id.host, 4242, 77};
    auto call_slot = reply_slot(early);
    send_raw(early.host, d::kRequestTag,
             request(d::Kind::call, {early, C::get_0, 0, call_slot->token, 0}, {}));
    auto create_slot = reply_slot(early);
    poc::Writer args;
    args.write(std::int32_t{31});
    send_raw(early.host, d::kRequestTag,
             request(d::Kind::create,
                     {early, C::ctor_0, poc::method_id("demo::Counter"), create_slot->token, 0},
                     args.take()));
    d::reply_take(*create_slot);
    auto reply = d::reply_take(*call_slot);
    poc::Reader r(d::body_of(*reply));
    CHECK(r.read<int>() == 31);
    auto *ref = static_cast<Counter *>(poc::reference_to(early, sizeof(Counter)));
    CHECK(Counter_client::add_0(ref, 1) == 32);
    poc::destroy(ref);
  });

  check::section("references to hosts outside the job are refused", [&] {
    poc::ProcessId outside{poc::host_count() + 5, 0, 1};
    CHECK(check::throws<poc::decode_error>([&] { poc::reference_to(outside, sizeof(Counter)); },
                                           "the job has only"));
    // add_to(Counter*, int) with a reference (tag 1) to a host beyond the job.
    poc::Writer w;
    w.write(std::uint8_t{1});
    w.write(outside);
    w.write(std::int32_t{1});
    CHECK(check::throws<poc::remote_error>([&] { raw_call(id, C::add_to_0, w.take()); },
                                           "the job has only"));
    CHECK(Counter_client::get_0(c) == 8);
  });

  check::section("an out-of-band length that disagrees with the block is refused", [&] {
    // checksum(const std::vector<double>&): the header claims 3 GiB of
    // doubles out of band, the block that comes has 1 MiB. The receiver
    // probes the block and refuses before allocating 3 GiB.
    poc::Writer w;
    w.write_size((std::uint64_t{3} << 30 << 1) | 1);
    std::vector<std::byte> block(std::size_t{1} << 20);
    const std::uint32_t oob_tag = 12345;
    auto &engine = d::host().engine();
    const MPI_Comm blocks = engine.links().world()->blocks;
    MPI_Request rq;
    MPI_Isend(block.data(), static_cast<int>(block.size()), MPI_BYTE, id.host,
              static_cast<int>(engine.blocks().tag(oob_tag, 0)), blocks, &rq);
    CHECK(check::throws<poc::remote_error>([&] { raw_call(id, C::checksum_0, w.take(), 1); },
                                           "where the next block has 1048576"));
    MPI_Wait(&rq, MPI_STATUS_IGNORE);
    CHECK(Counter_client::get_0(c) == 8);
  });

  check::section("oversized announcements without their chunks are dropped", [&] {
    auto announcement = [](std::uint64_t bytes, std::uint16_t chunks) {
      return announcing(d::frame(d::Kind::oversized, d::OversizedHead{bytes}), chunks);
    };
    // A chunk count that does not fit the size: dropped at once.
    send_raw(id.host, d::kRequestTag, announcement(40000, 2));
    // A chunk that never comes: dropped after the block timeout.
    send_raw(id.host, d::kRequestTag, announcement(40000, 1));
    CHECK(Counter_client::get_0(c) == 8);
  });

  check::section("stray replies and acknowledgements are dropped", [&] {
    send_raw(poc::host_rank(), d::kReplyTag,
             d::frame(d::Kind::reply, d::ReplyHead{987654321, d::Status::ok}));
    send_raw(poc::host_rank(), d::kRequestTag,
             d::frame(d::Kind::ack, d::AckHead{1, 0}, bytes({0xff, 0xff})));
    CHECK(Counter_client::get_0(c) == 8);
  });

  check::section("a malformed batch delivers the messages before the fault", [&] {
    const std::vector<std::byte> one = bytes({1, 0, 0, 0});
    // The second record runs past the batch's end: the first call is
    // served, the rest of the batch dropped.
    auto slot = reply_slot(id);
    d::BatchFrame cut;
    cut.append(request(d::Kind::call, {id, C::add_0, 0, slot->token, 0}, one));
    cut.append(request(d::Kind::call, {id, C::add_0, 0, 0, 0}, one));
    std::vector<std::byte> frame(cut.to_send().begin(), cut.to_send().end());
    frame.resize(frame.size() - 8);
    send_raw(id.host, d::kRequestTag, frame);
    auto first_reply = d::reply_take(*slot);
    poc::Reader first(d::body_of(*first_reply));
    CHECK(first.read<int>() == 9);
    // A relay inside a batch is dropped; the call beside it is served.
    auto beside = reply_slot(id);
    d::BatchFrame relaying;
    relaying.append(d::frame(d::Kind::relay, d::RelayHead{id.host, poc::host_rank()},
                             request(d::Kind::call, {id, C::add_0, 0, 0, 0}, one)));
    relaying.append(request(d::Kind::call, {id, C::add_0, 0, beside->token, 0}, one));
    send_raw(id.host, d::kRequestTag, {relaying.to_send().begin(), relaying.to_send().end()});
    auto second_reply = d::reply_take(*beside);
    poc::Reader second(d::body_of(*second_reply));
    CHECK(second.read<int>() == 10);
    CHECK(Counter_client::get_0(c) == 10);
  });

  poc::destroy(c);
  std::printf("%s\n", check::failures ? "SOME CHECKS FAILED" : "ALL CHECKS PASSED");
  return check::failures ? 1 : 0;
}

} // namespace

int main(int argc, char **argv) {
  // Keep the block-timeout case short.
  setenv("POC_BLOCK_TIMEOUT_MS", "300", 1);
  return poc::run(argc, argv, &body);
}
