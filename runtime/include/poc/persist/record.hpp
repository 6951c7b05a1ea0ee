//===- poc/persist/record.hpp - On-disk format of one persistent object ---===//
//
// One object is one file: a self-checking header followed by the payload (the
// object's serialized fields). The header carries both checksums, so a tool
// can list a store by reading headers only, and a load detects any damage to
// header or payload before a byte of the payload is deserialized.
//
// Layout, all integers little-endian (docs/persistence.md has the table):
//
//   0  magic "\x89POCOBJ\n"        8 bytes
//   8  format version              u32 (record::format_version)
//  12  flags                       u32, 0 (reserved)
//  16  class layout hash           u64
//  24  saved time                  i64, ns since 1970-01-01 UTC
//  32  payload length              u64
//  40  payload CRC-32C             u32
//  44  class name length C         u16
//  46  address length A            u16
//  48  class name                  C bytes
//  48+C address                    A bytes
//  48+C+A header CRC-32C           u32, of bytes [0, 48+C+A)
//  52+C+A payload                  payload length bytes; end of file
//
//===----------------------------------------------------------------------===//
#pragma once

#include "poc/persist/address.hpp"

#include <array>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace poc::persist {

/// Time stamps of records: nanoseconds since the Unix epoch.
using SavedTime = std::chrono::time_point<std::chrono::system_clock, std::chrono::nanoseconds>;

/// What a record's header says about its object.
struct RecordInfo {
  Address address;                ///< The object's address (stored in the file too).
  std::string class_name;         ///< Fully qualified class, e.g. "ns::PageDevice".
  std::uint64_t layout_hash = 0;  ///< Compiler-computed hash of the class layout.
  std::uint64_t payload_size = 0; ///< Bytes of serialized state.
  SavedTime saved_time{};         ///< When the save was started.
};

/// A whole record: header information and the object's serialized state.
struct Record {
  RecordInfo info;
  std::vector<std::byte> payload;
};

namespace record {

/// First bytes of every record file. The 0x89 byte and the newline catch
/// files mangled by 7-bit or newline-translating transfers.
inline constexpr std::array<unsigned char, 8> magic = {0x89, 'P', 'O', 'C', 'O', 'B', 'J', '\n'};
/// The format this library writes and the only one it reads.
inline constexpr std::uint32_t format_version = 1;
/// Bytes before the class name.
inline constexpr std::size_t fixed_header_size = 48;
/// Longest class name a record may carry.
inline constexpr std::size_t max_class_name_length = 4096;

/// Header bytes of a record describing \p info whose payload has checksum
/// \p payload_crc. \throws store_error if the class name is too long.
std::vector<std::byte> encode_header(const RecordInfo &info, std::uint32_t payload_crc);

/// The first fixed_header_size bytes of a record, checked for magic,
/// version, flags and length limits; the header checksum is not yet known.
struct FixedHeader {
  std::uint64_t layout_hash = 0;
  std::int64_t saved_time_ns = 0;
  std::uint64_t payload_size = 0;
  std::uint32_t payload_crc = 0;
  std::uint16_t class_name_length = 0;
  std::uint16_t address_length = 0;

  /// Size of the whole header, checksum included.
  std::size_t header_size() const {
    return fixed_header_size + class_name_length + address_length + 4;
  }
};

/// Context for error messages: the address asked for and the file read.
struct Source {
  const std::string &address;
  const std::string &file;
};

/// Parses the fixed part. \throws store_error (bad_magic,
/// unsupported_version, corrupt) naming \p src.
FixedHeader decode_fixed(std::span<const std::byte> bytes, const Source &src);

/// Parses and verifies the whole header (\p bytes has fixed.header_size()
/// bytes), including that the stored address is \p src.address.
/// \throws store_error(corrupt) naming \p src.
RecordInfo decode_header(const FixedHeader &fixed, std::span<const std::byte> bytes,
                         const Source &src);

/// Verifies \p payload against the checksum in \p fixed.
/// \throws store_error(corrupt) naming \p src.
void check_payload(const FixedHeader &fixed, std::span<const std::byte> payload, const Source &src);

} // namespace record
} // namespace poc::persist
