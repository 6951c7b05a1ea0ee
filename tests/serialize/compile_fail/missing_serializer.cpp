// Must not compile: the class has neither a Serializer nor poc_write/poc_read.
#include "poc/serialize.hpp"

struct Opaque {
  int hidden = 0;
};

void send(poc::Writer &w, const Opaque &o) { w.write(o); }
