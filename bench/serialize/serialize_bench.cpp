//===- serialize_bench.cpp - poc serialization versus cereal --------------===//
//
// Encodes and decodes a set of typical RPC payloads with poc::Writer/Reader
// and with cereal::BinaryOutputArchive/BinaryInputArchive, in the same run,
// and prints the median time per message and the ratio cereal / poc.
//
// Both sides reuse their output buffer across iterations (poc: one Writer,
// cleared; cereal: one std::stringstream, rewound) and decode into a fresh
// object each time, as a server does for each request.
//
// Decoding into fresh objects costs the same allocations and container
// insertions with either library, and for strings and maps that common part
// dominates. The "copy" column measures it: copy-constructing the value,
// which allocates and builds the same objects without decoding anything.
// "ratio-copy" compares what each library spends beyond that floor:
// (cereal - copy) / (poc - copy).
//
// Times are the thread's CPU time (CLOCK_THREAD_CPUTIME_ID).
//
// Usage: serialize_bench [runs] (default 9 runs per measurement).
//
//===----------------------------------------------------------------------===//
#include "poc/serialize.hpp"

#include <cereal/archives/binary.hpp>
#include <cereal/types/map.hpp>
#include <cereal/types/string.hpp>
#include <cereal/types/vector.hpp>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <time.h>

namespace {

/// A typical small argument set: a few scalars.
struct Header {
  std::int64_t id = 0;
  double price = 0;
  std::int32_t quantity = 0;
  bool active = false;
  template <class Archive> void serialize(Archive &ar) { ar(id, price, quantity, active); }
};

/// A record mixing every kind of field.
struct Order {
  Header header;
  std::string symbol;
  std::vector<double> history;
  std::map<std::string, std::int32_t> attributes;
  std::vector<std::string> tags;
  template <class Archive> void serialize(Archive &ar) {
    ar(header, symbol, history, attributes, tags);
  }
};

} // namespace

// What poc++ generates for these classes: every field, in order.
template <> struct poc::Serializer<Header> {
  static void write(Writer &w, const Header &h) { w.write_all(h.id, h.price, h.quantity, h.active); }
  static void read(Reader &r, Header &h) { r.read_all(h.id, h.price, h.quantity, h.active); }
};
template <> struct poc::Serializer<Order> {
  static void write(Writer &w, const Order &o) {
    w.write_all(o.header, o.symbol, o.history, o.attributes, o.tags);
  }
  static void read(Reader &r, Order &o) {
    r.read_all(o.header, o.symbol, o.history, o.attributes, o.tags);
  }
};

namespace {

/// CPU time of the calling thread: the machine is shared, and wall-clock
/// time would charge other processes' time slices to whichever side was
/// running.
struct ThreadClock {
  using duration = std::chrono::nanoseconds;
  using time_point = std::chrono::time_point<ThreadClock>;
  static time_point now() noexcept {
    timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return time_point(duration(std::int64_t{ts.tv_sec} * 1000000000 + ts.tv_nsec));
  }
};
using Clock = ThreadClock;

Order make_order(int i) {
  Order o;
  o.header = {i, 100.25 + i, 10 * i, i % 2 == 0};
  o.symbol = "SYM" + std::to_string(i % 1000);
  o.history.resize(16);
  for (std::size_t k = 0; k < o.history.size(); ++k)
    o.history[k] = i * 0.5 + static_cast<double>(k);
  o.attributes = {{"venue", i}, {"desk", i + 1}, {"book", i + 2}, {"strategy", i + 3}};
  o.tags = {"urgent", "client-" + std::to_string(i), "eod"};
  return o;
}

/// Median over \p runs of the time per call of \p fn, in nanoseconds; each
/// run repeats fn in batches until at least 20 ms have passed. A batch
/// lasts about 1 ms, so reading the clock costs nothing measurable.
template <class Fn> double median_ns(int runs, Fn &&fn) {
  std::size_t batch = 1;
  for (Clock::time_point start = Clock::now();
       Clock::now() - start < std::chrono::milliseconds(1); batch *= 2)
    for (std::size_t k = 0; k < batch; ++k)
      fn();
  std::vector<double> samples;
  for (int run = 0; run < runs; ++run) {
    std::size_t iterations = 0;
    Clock::time_point start = Clock::now();
    Clock::duration elapsed{};
    do {
      for (std::size_t k = 0; k < batch; ++k)
        fn();
      iterations += batch;
      elapsed = Clock::now() - start;
    } while (elapsed < std::chrono::milliseconds(20));
    samples.push_back(std::chrono::duration<double, std::nano>(elapsed).count() /
                      static_cast<double>(iterations));
  }
  std::nth_element(samples.begin(), samples.begin() + samples.size() / 2, samples.end());
  return samples[samples.size() / 2];
}

volatile std::size_t sink; // keeps results observable

/// Sums over all cases, for the ratio of the whole message set.
struct Totals {
  double poc_encode = 0, cereal_encode = 0, poc_decode = 0, cereal_decode = 0, copy = 0;
};
Totals totals;

template <class T> void bench_case(const char *name, const T &value, int runs) {
  // poc
  poc::Writer writer;
  double poc_encode = median_ns(runs, [&] {
    writer.clear();
    writer.write(value);
    sink = writer.size();
  });
  writer.clear();
  writer.write(value);
  std::vector<std::byte> message(writer.bytes().begin(), writer.bytes().end());
  double poc_decode = median_ns(runs, [&] {
    poc::Reader reader(message);
    T out;
    reader.read(out);
    reader.expect_end();
    sink = reader.offset();
  });

  // cereal
  std::stringstream stream;
  double cereal_encode = median_ns(runs, [&] {
    stream.seekp(0);
    cereal::BinaryOutputArchive archive(stream);
    archive(value);
    sink = static_cast<std::size_t>(stream.tellp());
  });
  stream.str("");
  {
    cereal::BinaryOutputArchive archive(stream);
    archive(value);
  }
  std::string encoded = stream.str();
  std::istringstream input(encoded);
  double cereal_decode = median_ns(runs, [&] {
    input.clear();
    input.seekg(0);
    cereal::BinaryInputArchive archive(input);
    T out;
    archive(out);
    sink = static_cast<std::size_t>(input.tellg());
  });

  double copy = median_ns(runs, [&] {
    T out(value);
    sink = reinterpret_cast<std::uintptr_t>(&out);
  });

  totals.poc_encode += poc_encode;
  totals.cereal_encode += cereal_encode;
  totals.poc_decode += poc_decode;
  totals.cereal_decode += cereal_decode;
  totals.copy += copy;
  std::printf("%-22s %-7s %8zu %11.1f %11.1f %7.2f\n", name, "encode", message.size(), poc_encode,
              cereal_encode, cereal_encode / poc_encode);
  std::printf("%-22s %-7s %8zu %11.1f %11.1f %7.2f %9.1f %10.2f\n", name, "decode",
              encoded.size(), poc_decode, cereal_decode, cereal_decode / poc_decode, copy,
              (cereal_decode - copy) / (poc_decode - copy));
}

} // namespace

int main(int argc, char **argv) {
  int runs = argc > 1 ? std::atoi(argv[1]) : 9;
  if (runs < 1) {
    std::fprintf(stderr, "usage: %s [runs >= 1]\n", argv[0]);
    return 2;
  }
  std::printf("median of %d runs; ns per message; ratio = cereal / poc (higher is better)\n", runs);
  std::printf("%-22s %-7s %8s %11s %11s %7s %9s %10s\n", "case", "op", "bytes", "poc ns",
              "cereal ns", "ratio", "copy ns", "ratio-copy");

  Header header{42, 99.5, 7, true};
  bench_case("scalars (Header)", header, runs);

  std::vector<std::string> strings;
  for (int i = 0; i < 100; ++i)
    strings.push_back("string number " + std::to_string(i));
  bench_case("100 strings", strings, runs);

  std::vector<double> doubles(1000);
  for (std::size_t i = 0; i < doubles.size(); ++i)
    doubles[i] = static_cast<double>(i) * 0.25;
  bench_case("vector<double>(1000)", doubles, runs);

  std::map<std::string, std::int32_t> map;
  for (int i = 0; i < 100; ++i)
    map.emplace("key" + std::to_string(i), i);
  bench_case("map<string,int>(100)", map, runs);

  Order order = make_order(1);
  bench_case("Order (one struct)", order, runs);

  std::vector<Order> orders;
  for (int i = 0; i < 100; ++i)
    orders.push_back(make_order(i));
  bench_case("vector<Order>(100)", orders, runs);

  // Every case once: the time of the whole message set.
  const Totals &t = totals;
  std::printf("%-22s %-7s %8s %11.1f %11.1f %7.2f\n", "message set (sum)", "encode", "",
              t.poc_encode, t.cereal_encode, t.cereal_encode / t.poc_encode);
  std::printf("%-22s %-7s %8s %11.1f %11.1f %7.2f %9.1f %10.2f\n", "message set (sum)", "decode",
              "", t.poc_decode, t.cereal_decode, t.cereal_decode / t.poc_decode, t.copy,
              (t.cereal_decode - t.copy) / (t.poc_decode - t.copy));
  std::printf("%-22s %-7s %8s %11.1f %11.1f %7.2f\n", "message set (sum)", "both", "",
              t.poc_encode + t.poc_decode, t.cereal_encode + t.cereal_decode,
              (t.cereal_encode + t.cereal_decode) / (t.poc_encode + t.poc_decode));
  return 0;
}
