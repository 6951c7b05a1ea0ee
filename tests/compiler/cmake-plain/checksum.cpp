#include <string>
#include <zlib.h>

unsigned long checksum(const std::string &s) {
  return crc32(0L, reinterpret_cast<const Bytef *>(s.data()), static_cast<uInt>(s.size()));
}
