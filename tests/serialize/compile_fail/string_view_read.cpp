// Must not compile: a std::string_view owns no storage to decode into.
#include "poc/serialize.hpp"

#include <string_view>

void receive(poc::Reader &r, std::string_view &text) { r.read(text); }
