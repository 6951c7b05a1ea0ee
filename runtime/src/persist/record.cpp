//===- persist/record.cpp - On-disk format of one persistent object -------===//
#include "poc/persist/record.hpp"

#include "poc/persist/crc32c.hpp"
#include "poc/persist/error.hpp"

#include <fmt/format.h>

#include <cstdio>
#include <cstring>

namespace poc::persist::record {

namespace {

void put_le(std::byte *out, std::uint64_t v, int bytes) {
  for (int i = 0; i < bytes; ++i)
    out[i] = static_cast<std::byte>(v >> (8 * i));
}

std::uint64_t get_le(const std::byte *in, int bytes) {
  std::uint64_t v = 0;
  for (int i = 0; i < bytes; ++i)
    v |= static_cast<std::uint64_t>(in[i]) << (8 * i);
  return v;
}

std::string hex32(std::uint32_t v) { return fmt::format("{:#010x}", v); }

[[noreturn]] void fail(store_errc kind, const Source &src, const std::string &what) {
  throw store_error(kind, src.address, what + " in " + src.file);
}

} // namespace

std::vector<std::byte> encode_header(const RecordInfo &info, std::uint32_t payload_crc) {
  const std::string &addr = info.address.str();
  if (info.class_name.empty())
    throw store_error(store_errc::invalid_argument, addr, "class name is empty");
  if (info.class_name.size() > max_class_name_length)
    throw store_error(store_errc::invalid_argument, addr,
                      "class name is " + std::to_string(info.class_name.size()) +
                          " bytes long; the limit is " + std::to_string(max_class_name_length));
  std::size_t c = info.class_name.size(), a = addr.size();
  std::vector<std::byte> h(fixed_header_size + c + a + 4);
  std::memcpy(h.data(), magic.data(), magic.size());
  put_le(&h[8], format_version, 4);
  put_le(&h[12], 0, 4);
  put_le(&h[16], info.layout_hash, 8);
  put_le(&h[24], static_cast<std::uint64_t>(info.saved_time.time_since_epoch().count()), 8);
  put_le(&h[32], info.payload_size, 8);
  put_le(&h[40], payload_crc, 4);
  put_le(&h[44], c, 2);
  put_le(&h[46], a, 2);
  std::memcpy(&h[fixed_header_size], info.class_name.data(), c);
  std::memcpy(&h[fixed_header_size + c], addr.data(), a);
  put_le(&h[fixed_header_size + c + a], crc32c(h.data(), fixed_header_size + c + a), 4);
  return h;
}

FixedHeader decode_fixed(std::span<const std::byte> bytes, const Source &src) {
  if (bytes.size() < fixed_header_size)
    fail(store_errc::truncated, src,
         "record header truncated: " + std::to_string(bytes.size()) + " of " +
             std::to_string(fixed_header_size) + " bytes");
  if (std::memcmp(bytes.data(), magic.data(), magic.size()) != 0)
    fail(store_errc::bad_magic, src, "not a poc store record (bad magic number)");
  auto version = static_cast<std::uint32_t>(get_le(&bytes[8], 4));
  if (version != format_version)
    fail(store_errc::unsupported_version, src,
         "record written in store format version " + std::to_string(version) +
             "; this program reads version " + std::to_string(format_version));
  if (auto flags = get_le(&bytes[12], 4); flags != 0)
    fail(store_errc::corrupt, src,
         "record header has unknown flags " + hex32(static_cast<std::uint32_t>(flags)));
  FixedHeader f;
  f.layout_hash = get_le(&bytes[16], 8);
  f.saved_time_ns = static_cast<std::int64_t>(get_le(&bytes[24], 8));
  f.payload_size = get_le(&bytes[32], 8);
  f.payload_crc = static_cast<std::uint32_t>(get_le(&bytes[40], 4));
  f.class_name_length = static_cast<std::uint16_t>(get_le(&bytes[44], 2));
  f.address_length = static_cast<std::uint16_t>(get_le(&bytes[46], 2));
  if (f.class_name_length == 0 || f.class_name_length > max_class_name_length)
    fail(store_errc::corrupt, src,
         "record header has an impossible class name length " +
             std::to_string(f.class_name_length));
  if (f.address_length == 0 || f.address_length > Address::max_length)
    fail(store_errc::corrupt, src,
         "record header has an impossible address length " + std::to_string(f.address_length));
  return f;
}

RecordInfo decode_header(const FixedHeader &fixed, std::span<const std::byte> bytes,
                         const Source &src) {
  std::size_t body = fixed.header_size() - 4;
  if (bytes.size() < fixed.header_size())
    fail(store_errc::truncated, src,
         "record header truncated: " + std::to_string(bytes.size()) + " of " +
             std::to_string(fixed.header_size()) + " bytes");
  auto stored = static_cast<std::uint32_t>(get_le(&bytes[body], 4));
  auto computed = crc32c(bytes.data(), body);
  if (stored != computed)
    fail(store_errc::corrupt, src,
         "record header checksum mismatch (stored " + hex32(stored) + ", computed " +
             hex32(computed) + ")");
  auto *names = reinterpret_cast<const char *>(bytes.data()) + fixed_header_size;
  std::string class_name(names, fixed.class_name_length);
  std::string_view address(names + fixed.class_name_length, fixed.address_length);
  if (address != src.address)
    fail(store_errc::corrupt, src,
         "record belongs to object '" + std::string(address) + "' (file copied or renamed?)");
  return RecordInfo{Address::parse(address), std::move(class_name), fixed.layout_hash,
                    fixed.payload_size, SavedTime(std::chrono::nanoseconds(fixed.saved_time_ns))};
}

void check_payload(const FixedHeader &fixed, std::span<const std::byte> payload,
                   const Source &src) {
  if (payload.size() != fixed.payload_size)
    fail(store_errc::truncated, src,
         "payload has " + std::to_string(payload.size()) + " of " +
             std::to_string(fixed.payload_size) + " bytes");
  auto computed = crc32c(payload.data(), payload.size());
  if (computed != fixed.payload_crc)
    fail(store_errc::corrupt, src,
         "payload checksum mismatch (stored " + hex32(fixed.payload_crc) + ", computed " +
             hex32(computed) + ")");
}

} // namespace poc::persist::record
