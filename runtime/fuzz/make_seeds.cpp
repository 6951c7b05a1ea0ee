//===- make_seeds.cpp - Writes the decode fuzzer's seed corpus ------------===//
//
// Usage: poc_fuzz_make_seeds <directory>. Writes a few valid encodings of
// fuzz::Message (prefixed with the fuzzer's block-selection byte) so the
// fuzzer starts from well-formed messages rather than from nothing.
//
//===----------------------------------------------------------------------===//
#include "fuzz_message.hpp"

#include <cstdio>
#include <fstream>
#include <string>

namespace {

void save(const std::string &path, const fuzz::Message &m) {
  poc::Writer w;
  w.set_out_of_band_threshold(SIZE_MAX);
  w.write(m);
  std::ofstream out(path, std::ios::binary);
  char no_blocks = 0;
  out.write(&no_blocks, 1);
  out.write(reinterpret_cast<const char *>(w.bytes().data()),
            static_cast<std::streamsize>(w.size()));
  if (!out)
    throw std::runtime_error("cannot write " + path);
}

} // namespace

int main(int argc, char **argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s <corpus directory>\n", argv[0]);
    return 2;
  }
  std::string dir = argv[1];
  try {
    fuzz::Message empty;
    save(dir + "/empty", empty);

    fuzz::Message full;
    full.id = 7;
    full.urgent = true;
    full.name = "Grüße";
    full.values = {1.5, -2.25, 1e300};
    full.tags = {"a", "", "long tag"};
    full.counts = {{"x", 1}, {"y", -1}};
    full.keys = {1, 2, 300};
    full.note = u"note";
    full.choice = std::string("choice");
    auto circle = std::make_unique<fuzz::Circle>();
    circle->label = "c";
    circle->radius = 2;
    full.shape = std::move(circle);
    auto polygon = std::make_shared<fuzz::Polygon>();
    polygon->corners = {{0, 0}, {1, 0}, {0, 1}};
    full.shared = polygon;
    full.raw = new fuzz::Circle();
    full.worker = static_cast<fuzz::Worker *>(poc::reference_to({1, 0, 5}, sizeof(fuzz::Worker)));
    full.flags = {true, false, true};
    full.lists = {{1, 2}, {}, {3}};
    full.misc = {'z', 0.5f, {1, -1}};
    full.chain = std::make_unique<fuzz::Node>();
    full.chain->next = std::make_unique<fuzz::Node>();
    save(dir + "/full", full);

    fuzz::Message variant;
    variant.choice = std::array<std::uint8_t, 4>{1, 2, 3, 4};
    variant.shape = std::make_unique<fuzz::Polygon>();
    variant.raw = new fuzz::Polygon();
    save(dir + "/variant", variant);
  } catch (const std::exception &e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 1;
  }
  return 0;
}
