// The serialisation members of the stdlib value types, exercised with a
// minimal stand-in for poc::Writer/poc::Reader (same member names), so that
// the round trips and the rejection of inconsistent input are checked
// independently of the runtime.
#include "pocstd/array_page.hpp"
#include "pocstd/domain.hpp"
#include "pocstd/page_map.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <stdexcept>
#include <type_traits>
#include <vector>

using namespace pocstd;

namespace {
struct FakeWriter {
  std::vector<unsigned char> bytes;
  template <class T> void write(const T& v) {
    static_assert(std::is_trivially_copyable_v<T>);
    const auto* p = reinterpret_cast<const unsigned char*>(&v);
    bytes.insert(bytes.end(), p, p + sizeof(T));
  }
  void write_block(const void* p, std::size_t n) {
    write(n);
    const auto* b = static_cast<const unsigned char*>(p);
    bytes.insert(bytes.end(), b, b + n);
  }
};

struct FakeReader {
  const std::vector<unsigned char>& bytes;
  std::size_t at = 0;
  template <class T> void read(T& v) { read_block(&v, sizeof(T)); }
  struct BlockHeader {
    std::size_t size;
  };
  BlockHeader read_block_header(std::size_t max) {
    std::size_t n = 0;
    read(n);
    if (n > max)
      throw std::runtime_error("size over limit");
    return {n};
  }
  void read_block_payload(const BlockHeader& h, void* dst) { read_block(dst, h.size); }
  void read_block(void* dst, std::size_t n) {
    if (n > bytes.size() - at)
      throw std::runtime_error("truncated");
    std::memcpy(dst, bytes.data() + at, n);
    at += n;
  }
};
} // namespace

TEST(Serialization, ArrayPageRoundTrip) {
  ArrayPage p(2, 3, 4);
  p.at(1, 2, 3) = {5, 6};
  FakeWriter w;
  p.poc_write(w);
  ArrayPage q;
  FakeReader r{w.bytes};
  q.poc_read(r);
  EXPECT_EQ(q.n1(), 2);
  EXPECT_EQ(q.n3(), 4);
  EXPECT_EQ(q.at(1, 2, 3), std::complex<double>(5, 6));
  EXPECT_EQ(r.at, w.bytes.size());
}

TEST(Serialization, ArrayPageShapeMismatchIsRejected) {
  ArrayPage p(2, 2, 2);
  FakeWriter w;
  p.poc_write(w);
  int wrong = 3;
  std::memcpy(w.bytes.data(), &wrong, sizeof wrong); // n1 = 3
  ArrayPage q;
  FakeReader r{w.bytes};
  EXPECT_THROW(q.poc_read(r), page_error);
}

TEST(Serialization, DomainAndPageMapRoundTrip) {
  Domain d(1, 2, 3, 4, 5, 6);
  PageMap m(3, 4, 5, 7);
  FakeWriter w;
  d.poc_write(w);
  m.poc_write(w);
  Domain d2;
  PageMap m2;
  FakeReader r{w.bytes};
  d2.poc_read(r);
  m2.poc_read(r);
  EXPECT_EQ(d2, d);
  EXPECT_EQ(m2.PageAddress(2, 3, 4).page_index, m.PageAddress(2, 3, 4).page_index);
  EXPECT_EQ(m2.PagesOnServer(6), m.PagesOnServer(6));
}

TEST(Serialization, CorruptPageMapIsRejected) {
  FakeWriter w;
  w.write(2);
  w.write(-1);
  w.write(2);
  w.write(1);
  PageMap m;
  FakeReader r{w.bytes};
  EXPECT_THROW(m.poc_read(r), std::invalid_argument);
}
