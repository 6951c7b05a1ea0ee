#pragma once
// A value through the runtime's real poc::Writer and poc::Reader: what a
// remote call sends, and what a persistent process's save writes and its
// activation reads back. Shared by the stdlib and fft3d unit tests.

#include <poc/serialize.hpp>

#include <cstddef>

namespace serialized {

/// Writes \p in and reads it back into \p out (blocks of 64 KiB and more go
/// out of band, as in a message); \p blocks receives how many did.
template <class T> void writeAndRead(const T &in, T &out, std::size_t *blocks = nullptr) {
  poc::Writer w;
  w.write(in);
  poc::MemoryBlockSource source(w.out_of_band());
  poc::Reader r(w.bytes(), &source);
  r.read(out);
  r.expect_end();
  if (blocks)
    *blocks = w.out_of_band().size();
}

/// \p in written and read back into a default-constructed T.
template <class T> T roundTrip(const T &in, std::size_t *blocks = nullptr) {
  T out;
  writeAndRead(in, out, blocks);
  return out;
}

} // namespace serialized
