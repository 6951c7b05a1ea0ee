//===- dataflow/operand.hpp - Values that travel along edges -------------===//
///
/// \file
/// An operand is a typed value held by a shared pointer: local edges pass
/// the pointer (no copy, no encoding), and only an edge that crosses
/// machines encodes it, with the runtime's serializer. A `Codec` is the
/// type's identity and its encoding; `codec_of<T>()` gives one per type.
///
//===----------------------------------------------------------------------===//
#pragma once

#include <poc/serialize.hpp>

#include <memory>
#include <string>
#include <typeinfo>

namespace dataflow {

/// A Writer whose every value stays in its byte buffer: the dataflow
/// library sends encoded records as one byte vector, so nothing in them may
/// go out of band.
inline poc::Writer in_band_writer() {
  poc::Writer w;
  w.set_out_of_band_threshold(SIZE_MAX);
  return w;
}

namespace detail {
/// The demangled name of `type` ("std::out_of_range"), for messages.
std::string readable_type_name(const std::type_info &type);
} // namespace detail

/// How one operand type is named, encoded and decoded. One static instance
/// per type, so two ports carry the same type exactly when their codecs are
/// the same object.
struct Codec {
  /// The readable name of the type, for errors.
  std::string (*name)();
  void (*encode)(const void *value, poc::Writer &out);
  std::shared_ptr<const void> (*decode)(poc::Reader &in);
};

template <class T> const Codec &codec_of() {
  static const Codec codec{
      [] { return detail::readable_type_name(typeid(T)); },
      [](const void *value, poc::Writer &out) { out.write(*static_cast<const T *>(value)); },
      [](poc::Reader &in) -> std::shared_ptr<const void> {
        auto value = std::make_shared<T>();
        in.read(*value);
        return value;
      }};
  return codec;
}

/// One value on an edge: immutable once made, shared by every edge that
/// carries it on this machine.
class Operand {
public:
  Operand() = default;
  Operand(std::shared_ptr<const void> value, const Codec *codec)
      : value_(std::move(value)), codec_(codec) {}
  template <class T> static Operand of(T value) {
    return Operand(std::make_shared<const T>(std::move(value)), &codec_of<T>());
  }

  explicit operator bool() const noexcept { return value_ != nullptr; }
  const Codec *codec() const noexcept { return codec_; }
  /// The value; T must be the type the operand was made with.
  template <class T> const T &get() const { return *static_cast<const T *>(value_.get()); }

  void encode(poc::Writer &out) const { codec_->encode(value_.get(), out); }
  /// The size of its encoding (for --trace and --stats).
  std::size_t encoded_size() const {
    poc::Writer w = in_band_writer();
    encode(w);
    return w.bytes().size();
  }
  static Operand decode(const Codec &codec, poc::Reader &in) {
    return Operand(codec.decode(in), &codec);
  }

private:
  std::shared_ptr<const void> value_;
  const Codec *codec_ = nullptr;
};

} // namespace dataflow
