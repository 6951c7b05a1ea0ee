//===- poc/serialize/errors.hpp - Serialization failures -------------------===//
#pragma once

#include <stdexcept>

namespace poc {

/// A message that cannot be decoded: truncated, a length or count beyond the
/// message or beyond the configured Limits, an invalid tag, an unknown
/// polymorphic type name, trailing bytes. Every malformed input ends in this
/// exception, never in a crash, a hang or a huge allocation.
class decode_error : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

/// A value that cannot be encoded, which is a programming error on the
/// sending side: an object whose dynamic type is not registered with
/// TypeRegistry, a valueless std::variant, a local object of a class that
/// has no Serializer.
class encode_error : public std::logic_error {
public:
  using std::logic_error::logic_error;
};

} // namespace poc
