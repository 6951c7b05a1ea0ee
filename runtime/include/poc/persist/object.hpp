//===- poc/persist/object.hpp - Saving and loading serializable objects ---===//
//
// The bridge between the store and the serialization library: an object's
// state is whatever poc::Serializer<T> writes (the compiler-generated
// serializer of a process class, or the class's own poc_write/poc_read).
// Large blocks that a poc::Writer keeps out of band go to disk straight from
// the object's memory.
//
// Payload layout (inside the record, docs/persistence.md §6):
//   u64 little-endian  length M of the inline message
//   M bytes            Writer::bytes()
//   the out-of-band blocks, in the order the Writer recorded them
//
// Header-only: it needs the serialization library of libpoc_runtime, which
// the store itself (poc::persist) does not.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "poc/persist/error.hpp"
#include "poc/persist/store.hpp"
#include "poc/serialize.hpp"

#include <array>
#include <cstring>
#include <string>
#include <vector>

namespace poc::persist {

namespace detail {

/// Serves a record's out-of-band blocks from the payload, in order.
class PayloadBlocks final : public poc::BlockSource {
public:
  explicit PayloadBlocks(std::span<const std::byte> rest) noexcept : Rest(rest) {}
  void receive(void *dst, std::size_t n) override {
    if (n > Rest.size())
      throw poc::decode_error("stored state ends inside an out-of-band block");
    if (n != 0)
      std::memcpy(dst, Rest.data(), n);
    Rest = Rest.subspan(n);
  }
  /// Bytes after the last block served.
  std::size_t left() const noexcept { return Rest.size(); }

private:
  std::span<const std::byte> Rest;
};

} // namespace detail

/// Serializes \p object with poc::Serializer<T> and saves it as the record
/// of \p address (atomically, see Store::save).
/// \throws store_error from the save; poc::encode_error from the serializer.
template <class T>
SavedTime save_object(const Store &store, const Address &address, std::string_view class_name,
                      std::uint64_t layout_hash, const T &object) {
  poc::Writer w;
  w.write(object);
  std::uint64_t m = w.bytes().size();
  std::array<std::byte, 8> length;
  for (int i = 0; i < 8; ++i)
    length[i] = static_cast<std::byte>(m >> (8 * i));
  std::vector<std::span<const std::byte>> parts;
  parts.reserve(2 + w.out_of_band().size());
  parts.push_back(length);
  parts.push_back(w.bytes());
  for (const poc::Writer::Block &b : w.out_of_band())
    parts.push_back({static_cast<const std::byte *>(b.data), b.size});
  return store.save_parts(address, class_name, layout_hash, parts);
}

/// Loads the record of \p address, checks that it holds class \p class_name
/// with layout \p layout_hash, and deserializes it into \p object.
/// \returns the record's header. \throws store_error as Store::load does,
/// and store_error(corrupt) naming the object if the state does not decode.
template <class T>
RecordInfo load_object(const Store &store, const Address &address, std::string_view class_name,
                       std::uint64_t layout_hash, T &object) {
  Record r = store.load(address, class_name, layout_hash);
  std::span<const std::byte> payload = r.payload;
  try {
    if (payload.size() < 8)
      throw poc::decode_error("stored state is shorter than its 8-byte length field");
    std::uint64_t m = 0;
    for (int i = 0; i < 8; ++i)
      m |= static_cast<std::uint64_t>(payload[i]) << (8 * i);
    if (m > payload.size() - 8)
      throw poc::decode_error("stored message length exceeds the state");
    detail::PayloadBlocks blocks(payload.subspan(8 + m));
    poc::Reader reader(payload.subspan(8, m), &blocks);
    reader.read(object);
    reader.expect_end();
    if (blocks.left() != 0)
      throw poc::decode_error(std::to_string(blocks.left()) +
                              " bytes follow the last out-of-band block");
  } catch (const poc::decode_error &e) {
    throw store_error(store_errc::corrupt, address.str(),
                      "stored state does not decode as " + std::string(class_name) + ": " +
                          e.what());
  }
  return std::move(r.info);
}

} // namespace poc::persist
