//===- decode_fuzzer.cpp - libFuzzer target for the Reader ----------------===//
//
// Decodes a fuzz::Message from arbitrary bytes. Every input must either
// decode or throw poc::decode_error; anything else (a crash, a sanitizer
// report, another exception, a hang) is a bug. A message that decodes must
// encode again, and that encoding must decode to the same encoding.
//
// The first input byte selects whether out-of-band blocks are available
// (two zero-filled blocks of 64 KiB and 100000 bytes); the rest is the
// message.
//
//===----------------------------------------------------------------------===//
#include "fake_arena.hpp"
#include "fuzz_message.hpp"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <span>
#include <vector>

namespace {

std::vector<std::byte> encode(const fuzz::Message &m) {
  poc::Writer w;
  w.set_out_of_band_threshold(SIZE_MAX); // keep the re-encoding self-contained
  w.write(m);
  return w.take();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
  if (size == 0)
    return 0;
  poc::test::reset_arena(); // each input starts with no known processes
  static const std::vector<std::byte> block_a(64 * 1024), block_b(100000);
  static const poc::Writer::Block blocks[] = {{block_a.data(), block_a.size()},
                                              {block_b.data(), block_b.size()}};
  poc::MemoryBlockSource source(blocks);
  bool with_blocks = (data[0] & 1) != 0;
  std::span<const std::byte> message(reinterpret_cast<const std::byte *>(data + 1), size - 1);

  fuzz::Message decoded;
  try {
    poc::Reader r(message, with_blocks ? &source : nullptr);
    r.read(decoded);
    r.expect_end();
  } catch (const poc::decode_error &) {
    return 0;
  }

  // What decoded must survive a round trip unchanged.
  std::vector<std::byte> first = encode(decoded);
  fuzz::Message again;
  poc::Reader r(first);
  r.read(again);
  r.expect_end();
  if (encode(again) != first)
    std::abort();
  return 0;
}
