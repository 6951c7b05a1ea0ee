// Must not compile: a std::span owns no storage to decode into.
#include "poc/serialize.hpp"

#include <span>

void receive(poc::Reader &r, std::span<double> &values) { r.read(values); }
