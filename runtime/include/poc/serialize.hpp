//===- poc/serialize.hpp - The poc++ serialization library ----------------===//
//
// Encodes method arguments and results into messages (docs/runtime.md 3.4;
// the wire format and the rules are in docs/serialization.md):
//
//   poc::Writer w;                    // append-only buffer
//   w.write_all(id, name, values);    // Serializer<T> for each argument
//   poc::Reader r(w.bytes());         // bounds-checked view
//   r.read_all(id, name, values);     // throws poc::decode_error if malformed
//   r.expect_end();
//
//===----------------------------------------------------------------------===//
#pragma once

#include "poc/serialize/block_source.hpp"
#include "poc/serialize/errors.hpp"
#include "poc/serialize/limits.hpp"
#include "poc/serialize/reader.hpp"
#include "poc/serialize/serializer.hpp"
#include "poc/serialize/writer.hpp"

#include "poc/serialize/arithmetic.hpp"
#include "poc/serialize/array.hpp"
#include "poc/serialize/associative.hpp"
#include "poc/serialize/bitwise.hpp"
#include "poc/serialize/complex.hpp"
#include "poc/serialize/members.hpp"
#include "poc/serialize/optional.hpp"
#include "poc/serialize/process_id.hpp"
#include "poc/serialize/sequence.hpp"
#include "poc/serialize/span.hpp"
#include "poc/serialize/string.hpp"
#include "poc/serialize/tuple.hpp"
#include "poc/serialize/variant.hpp"
#include "poc/serialize/vector.hpp"

#include "poc/serialize/object.hpp"
#include "poc/serialize/pointer.hpp"
#include "poc/serialize/smart_pointer.hpp"
#include "poc/serialize/type_registry.hpp"
