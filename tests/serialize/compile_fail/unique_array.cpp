// Must not compile: a unique_ptr<T[]> does not know its length.
#include "poc/serialize.hpp"

#include <memory>

void send(poc::Writer &w, const std::unique_ptr<double[]> &values) { w.write(values); }
