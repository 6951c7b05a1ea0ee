//===- random_round_trip_test.cpp - Round trips of generated values -------===//
//
// Values of a deeply nested type, generated from a fixed seed (so failures
// reproduce), must survive encoding and decoding unchanged, with blocks both
// in band and out of band.
//
//===----------------------------------------------------------------------===//
#include "round_trip.hpp"

#include <cstdint>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <tuple>
#include <variant>
#include <vector>

namespace {

using Leaf = std::variant<std::monostate, std::int64_t, double, std::string, std::vector<float>,
                          std::vector<bool>>;
using Record = std::tuple<std::uint16_t, std::optional<std::string>, std::vector<Leaf>>;
using Document = std::map<std::string, std::vector<Record>>;

class Generator {
public:
  explicit Generator(std::uint32_t seed) : rng_(seed) {}

  Document document() {
    Document d;
    for (std::size_t i = 0, n = below(6); i < n; ++i) {
      std::vector<Record> &records = d[text(8)];
      for (std::size_t j = 0, m = below(5); j < m; ++j)
        records.push_back(record());
    }
    return d;
  }

private:
  std::size_t below(std::size_t n) {
    return std::uniform_int_distribution<std::size_t>(0, n - 1)(rng_);
  }

  std::string text(std::size_t max_length) {
    std::string s(below(max_length + 1), '\0');
    for (char &c : s)
      c = static_cast<char>(below(256)); // any byte, including NUL and non-UTF-8
    return s;
  }

  Record record() {
    std::vector<Leaf> leaves;
    for (std::size_t i = 0, n = below(6); i < n; ++i)
      leaves.push_back(leaf());
    std::optional<std::string> note;
    if (below(2) == 1)
      note = text(40);
    return {static_cast<std::uint16_t>(below(65536)), note, leaves};
  }

  Leaf leaf() {
    switch (below(6)) {
    case 0:
      return std::monostate{};
    case 1:
      return static_cast<std::int64_t>(rng_());
    case 2:
      return std::uniform_real_distribution<double>(-1e9, 1e9)(rng_);
    case 3:
      return text(100);
    case 4: {
      // Occasionally large enough to travel out of band.
      std::vector<float> v(below(4) == 0 ? 20000 + below(1000) : below(50));
      for (float &f : v)
        f = static_cast<float>(below(1000)) / 8;
      return v;
    }
    default: {
      std::vector<bool> bits(below(70));
      for (std::size_t i = 0; i < bits.size(); ++i)
        bits[i] = below(2) == 1;
      return bits;
    }
    }
  }

  std::mt19937 rng_;
};

TEST(RandomRoundTrip, GeneratedDocumentsSurviveUnchanged) {
  Generator gen(20261122);
  for (int i = 0; i < 200; ++i) {
    Document d = gen.document();
    ASSERT_EQ(poc::test::round_trip(d), d) << "document " << i;
  }
}

} // namespace
