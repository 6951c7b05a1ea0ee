// Must not compile: an int* does not say how many ints it points to.
#include "poc/serialize.hpp"

void send(poc::Writer &w, int *values) { w.write(values); }
