//===- storage.cpp - Where a page device keeps its pages ------------------===//

#include "pocstd/storage.hpp"

#include <poc/serialize.hpp>

namespace pocstd {

void Storage::poc_write(poc::Writer &w) const {
  w.write_all(static_cast<int>(medium), path, direct_io);
}

void Storage::poc_read(poc::Reader &r) {
  int m = 0;
  r.read_all(m, path, direct_io);
  if (m != static_cast<int>(Medium::Memory) && m != static_cast<int>(Medium::File))
    r.fail("Storage: unknown medium " + std::to_string(m));
  medium = static_cast<Medium>(m);
  if (medium == Medium::File && path.empty())
    r.fail("Storage: a file medium without a path");
}

} // namespace pocstd
