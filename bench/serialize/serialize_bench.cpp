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
// The contenders are timed alternately, one batch of about 2 ms each per
// round, and the ratios are medians of the per-round ratios, so that load
// from other processes on the machine affects both sides alike. The "sum"
// rows add up the per-case medians.
//
// Usage: serialize_bench [rounds] (default 15).
//
//===----------------------------------------------------------------------===//
#include "poc/serialize.hpp"

#include <cereal/archives/binary.hpp>
#include <cereal/types/map.hpp>
#include <cereal/types/string.hpp>
#include <cereal/types/vector.hpp>
#include <fmt/format.h>

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
  static void write(Writer &w, const Header &h) {
    w.write_all(h.id, h.price, h.quantity, h.active);
  }
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

/// Calls \p fn in a batch that lasts about 2 ms, so that reading the clock
/// costs nothing measurable; returns the batch size.
template <class Fn> std::size_t calibrate(Fn &fn) {
  std::size_t batch = 1;
  for (;;) {
    Clock::time_point start = Clock::now();
    for (std::size_t k = 0; k < batch; ++k)
      fn();
    if (Clock::now() - start >= std::chrono::milliseconds(2))
      return batch;
    batch *= 2;
  }
}

/// Time per call of \p fn over one batch, in nanoseconds.
template <class Fn> double time_batch(Fn &fn, std::size_t batch) {
  Clock::time_point start = Clock::now();
  for (std::size_t k = 0; k < batch; ++k)
    fn();
  return std::chrono::duration<double, std::nano>(Clock::now() - start).count() /
         static_cast<double>(batch);
}

double median(std::vector<double> v) {
  std::nth_element(v.begin(), v.begin() + v.size() / 2, v.end());
  return v[v.size() / 2];
}

/// Medians of interleaved measurements. The machine is shared, so its load
/// changes while the benchmark runs; timing the contenders alternately and
/// taking the median of the per-round ratios compares them under the same
/// conditions.
struct Comparison {
  double poc, cereal, ratio;
};

template <class P, class C> Comparison compare(int runs, P &&poc, C &&cereal) {
  std::size_t poc_batch = calibrate(poc), cereal_batch = calibrate(cereal);
  std::vector<double> p, c, ratio;
  for (int run = 0; run < runs; ++run) {
    p.push_back(time_batch(poc, poc_batch));
    c.push_back(time_batch(cereal, cereal_batch));
    ratio.push_back(c.back() / p.back());
  }
  return {median(p), median(c), median(ratio)};
}

/// Decoding compared with cereal and with the copy floor, interleaved the
/// same way; `above_floor` is the median of (cereal - copy) / (poc - copy).
struct DecodeComparison {
  double poc, cereal, copy, ratio, above_floor;
};

template <class P, class C, class F>
DecodeComparison compare_decode(int runs, P &&poc, C &&cereal, F &&copy) {
  std::size_t poc_batch = calibrate(poc), cereal_batch = calibrate(cereal),
              copy_batch = calibrate(copy);
  std::vector<double> p, c, f, ratio, above;
  for (int run = 0; run < runs; ++run) {
    p.push_back(time_batch(poc, poc_batch));
    c.push_back(time_batch(cereal, cereal_batch));
    f.push_back(time_batch(copy, copy_batch));
    ratio.push_back(c.back() / p.back());
    above.push_back((c.back() - f.back()) / (p.back() - f.back()));
  }
  return {median(p), median(c), median(f), median(ratio), median(above)};
}

volatile std::size_t sink; // keeps results observable

/// Sums over all cases, for the ratio of the whole message set.
struct Totals {
  double poc_encode = 0, cereal_encode = 0, poc_decode = 0, cereal_decode = 0, copy = 0;
};
Totals totals;

template <class T> void bench_case(const char *name, const T &value, int runs) {
  poc::Writer writer;
  std::stringstream stream;
  Comparison encode = compare(
      runs,
      [&] {
        writer.clear();
        writer.write(value);
        sink = writer.size();
      },
      [&] {
        stream.seekp(0);
        cereal::BinaryOutputArchive archive(stream);
        archive(value);
        sink = static_cast<std::size_t>(stream.tellp());
      });

  writer.clear();
  writer.write(value);
  std::vector<std::byte> message(writer.bytes().begin(), writer.bytes().end());
  stream.str("");
  {
    cereal::BinaryOutputArchive archive(stream);
    archive(value);
  }
  std::string encoded = stream.str();
  std::istringstream input(encoded);
  auto poc_decode = [&] {
    poc::Reader reader(message);
    T out;
    reader.read(out);
    reader.expect_end();
    sink = reader.offset();
  };
  auto cereal_decode = [&] {
    input.clear();
    input.seekg(0);
    cereal::BinaryInputArchive archive(input);
    T out;
    archive(out);
    sink = static_cast<std::size_t>(input.tellg());
  };
  auto copy = [&] {
    T out(value);
    sink = reinterpret_cast<std::uintptr_t>(&out);
  };
  DecodeComparison decode = compare_decode(runs, poc_decode, cereal_decode, copy);

  totals.poc_encode += encode.poc;
  totals.cereal_encode += encode.cereal;
  totals.poc_decode += decode.poc;
  totals.cereal_decode += decode.cereal;
  totals.copy += decode.copy;
  fmt::print("{:<22} {:<7} {:8} {:11.1f} {:11.1f} {:7.2f}\n", name, "encode", message.size(),
             encode.poc, encode.cereal, encode.ratio);
  fmt::print("{:<22} {:<7} {:8} {:11.1f} {:11.1f} {:7.2f} {:9.1f} {:10.2f}\n", name, "decode",
             encoded.size(), decode.poc, decode.cereal, decode.ratio, decode.copy,
             decode.above_floor);
}

} // namespace

int main(int argc, char **argv) {
  int runs = argc > 1 ? std::atoi(argv[1]) : 15;
  if (runs < 1) {
    fmt::print(stderr, "usage: {} [runs >= 1]\n", argv[0]);
    return 2;
  }
  fmt::print("median of {} rounds; ns per message; ratio = cereal / poc (higher is better)\n",
             runs);
  fmt::print("{:<22} {:<7} {:>8} {:>11} {:>11} {:>7} {:>9} {:>10}\n", "case", "op", "bytes",
             "poc ns", "cereal ns", "ratio", "copy ns", "ratio-copy");

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
  fmt::print("{:<22} {:<7} {:>8} {:11.1f} {:11.1f} {:7.2f}\n", "message set (sum)", "encode", "",
             t.poc_encode, t.cereal_encode, t.cereal_encode / t.poc_encode);
  fmt::print("{:<22} {:<7} {:>8} {:11.1f} {:11.1f} {:7.2f} {:9.1f} {:10.2f}\n", "message set (sum)",
             "decode", "", t.poc_decode, t.cereal_decode, t.cereal_decode / t.poc_decode, t.copy,
             (t.cereal_decode - t.copy) / (t.poc_decode - t.copy));
  fmt::print("{:<22} {:<7} {:>8} {:11.1f} {:11.1f} {:7.2f}\n", "message set (sum)", "both", "",
             t.poc_encode + t.poc_decode, t.cereal_encode + t.cereal_decode,
             (t.cereal_encode + t.cereal_decode) / (t.poc_encode + t.poc_decode));
  return 0;
}
