#pragma once
/// \file
/// How call arguments travel: the client-side encoding of each argument
/// (`ArgCodec`), the server-side storage a parameter is decoded into
/// (`ParamSlot`), and the copy-back of non-const reference and pointer
/// parameters. Both sides are driven by the same parameter types, so the
/// encodings always agree.
///
/// Encodings (after the serialisation of docs/runtime.md section 3.4):
///  * `T`, `const T&`, `T&`, `T&&`: the value.
///  * `U*` with U a class: the serializer's pointer form (null, remote
///    reference, or an inline copy the server owns for the call's duration).
///    A pointer to a process group member, or to a class that cannot be
///    copied, is only ever null or a reference to a process
///    (`is_reference_only_v`): the same tags, encoded and decoded by one
///    function for all such classes, so no per-class code for copies is
///    compiled.
///  * `X*` with X not a class, and `counted(p, n)`: a tag byte
///    (0 null, 1 remote array reference, 2 one element, 3 `n` elements),
///    then the payload. Trivially copyable elements go as one block, i.e.
///    out of band when large.
///  * `const char*`: tag 0 null or 2 followed by the string.
/// Copy-back of a non-const `T&` is the value; of a non-const pointer a flag
/// byte (1: the pointee(s) follow) so a pointer that was sent as a remote
/// reference is never written through.

#include <poc/errors.hpp>
#include <poc/process_id.hpp>
#include <poc/serialize.hpp>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>
#include <typeinfo>
#include <vector>

namespace poc {

class ProcessGroupMember;

/// `n` consecutive elements starting at `data`: what poc++ passes for a
/// pointer parameter annotated `POC_COUNT(n)`. Sent as all `n` elements;
/// copied back if the parameter points to non-const.
template <class T> struct counted_ptr {
  T *data;
  std::size_t count;
};

/// Makes a counted_ptr.
template <class T> counted_ptr<T> counted(T *data, std::size_t count) { return {data, count}; }

namespace detail {

/// A remote array reference on the wire: the process, the byte offset of
/// the pointer inside the array, and the array's size in bytes.
struct ArrayRef {
  ProcessId id;
  std::uint64_t offset = 0;
  std::uint64_t bytes = 0;
};
/// Encodes the remote array reference `p` (defined by the runtime).
ArrayRef array_ref(const void *p);
/// The interned address for an array reference (defined by the runtime).
void *array_address(const ArrayRef &ref);

enum PtrTag : std::uint8_t { kNull = 0, kRemote = 1, kOne = 2, kMany = 3 };

template <class T>
inline constexpr bool is_class_pointer_v =
    std::is_pointer_v<T> && std::is_class_v<std::remove_pointer_t<T>>;

/// Largest element array a message may announce (guards allocation before
/// the elements are validated).
inline constexpr std::uint64_t kMaxArrayBytes = std::uint64_t{1} << 36;

/// True for a class `U` (maybe const) whose objects a `U*` argument never
/// copies, so that it is only ever null or a reference to a process: a
/// member of a process group (the language makes every such class a
/// process class; its Serializer, inherited from ProcessGroupMember, is for
/// the state of a persistent member, never a copy through a pointer), or a
/// class that cannot be copied at all (no Serializer, and not polymorphic,
/// so no registered derived class could be sent in its place). Such a
/// pointer is encoded by `write_reference` and decoded by `read_reference`
/// instead of per-class code for copies.
template <class U>
inline constexpr bool is_reference_only_v =
    std::is_class_v<U> && (std::is_base_of_v<ProcessGroupMember, std::remove_const_t<U>> ||
                           (!Serializable<std::remove_const_t<U>> && !std::is_polymorphic_v<U>));

/// Writes the pointer `p` to an object of class `type` in the serializer's
/// pointer form, as null or a reference to a process (`complete` is the
/// address of the object's complete object); throws encode_error for a
/// local object that is not a process. One function for all classes, in
/// the runtime library.
void write_reference(Writer &w, const void *p, const void *complete, const std::type_info &type);

/// Writes the pointer `p` to a class whose pointers are references only
/// (is_reference_only_v).
template <class U> void write_reference(Writer &w, U *p) {
  const void *complete = p;
  if constexpr (std::is_polymorphic_v<U>) {
    // Only a local object can be looked into: a remote reference's address
    // holds no object.
    if (p != nullptr && !is_remote(p))
      complete = dynamic_cast<const void *>(p);
  }
  write_reference(w, p, complete, typeid(U));
}

/// Reads a pointer written by write_reference: null, or the interned address
/// of the process (of at least `size` bytes); a copy of an object of class
/// `type` is a decode error. One function for all classes, in the runtime
/// library.
void *read_reference(Reader &r, std::size_t size, const std::type_info &type);

/// Reads a pointer to a class whose pointers are references only
/// (is_reference_only_v).
template <class U> U *read_reference(Reader &r) {
  return static_cast<U *>(read_reference(r, sizeof(U), typeid(U)));
}

/// Elements that travel as one block of bytes.
template <class X>
inline constexpr bool is_block_element_v = std::is_trivially_copyable_v<X> && !std::is_pointer_v<X>;

template <class X> void write_elements(Writer &w, const X *p, std::size_t n) {
  w.write(static_cast<std::uint64_t>(n));
  if constexpr (is_block_element_v<X>) {
    w.write_block(p, n * sizeof(X));
  } else {
    for (std::size_t i = 0; i < n; ++i) {
      if constexpr (std::is_pointer_v<X> && is_reference_only_v<std::remove_pointer_t<X>>)
        write_reference(w, p[i]);
      else
        w.write(p[i]);
    }
  }
}

/// Throws the decode error of an element count that exceeds the message
/// (in the runtime library: it is the same for every element type).
[[noreturn]] void throw_count_exceeds(std::uint64_t n);

/// Reads an element count written by write_elements and checks it: at most
/// kMaxArrayBytes in total, and for elements that travel inline at most one
/// element per remaining byte.
template <class X> std::size_t read_count(Reader &r) {
  std::uint64_t n = r.read<std::uint64_t>();
  if (n > kMaxArrayBytes / sizeof(X) || (!is_block_element_v<X> && n > r.remaining()))
    throw_count_exceeds(n);
  return static_cast<std::size_t>(n);
}

template <class X> void read_elements(Reader &r, X *p, std::size_t n) {
  if constexpr (is_block_element_v<X>) {
    r.read_block(p, n * sizeof(X));
  } else {
    for (std::size_t i = 0; i < n; ++i) {
      if constexpr (std::is_pointer_v<X> && is_reference_only_v<std::remove_pointer_t<X>>)
        p[i] = read_reference<std::remove_pointer_t<X>>(r);
      else
        r.read(p[i]);
    }
  }
}

/// Client-side encoding of one argument of (decayed) type A.
template <class A> struct ArgCodec {
  static void write(Writer &w, const A &a) { w.write(a); }
  static void read_back(Reader &r, A &a) { r.read(a); }
};

/// Pointer arguments.
template <class X> struct ArgCodec<X *> {
  using M = std::remove_const_t<X>;
  static void write(Writer &w, X *p) {
    if constexpr (is_reference_only_v<X>) {
      write_reference(w, p);
    } else if constexpr (std::is_class_v<X>) {
      w.write(const_cast<M *>(p));
    } else if constexpr (std::is_same_v<M, char>) {
      w.write(static_cast<std::uint8_t>(p ? kOne : kNull));
      if (p)
        w.write(std::string(p));
    } else {
      if (!p) {
        w.write(static_cast<std::uint8_t>(kNull));
      } else if (is_remote(p)) {
        ArrayRef ref = array_ref(p);
        w.write(static_cast<std::uint8_t>(kRemote));
        w.write_all(ref.id, ref.offset, ref.bytes);
      } else {
        w.write(static_cast<std::uint8_t>(kOne));
        write_elements<M>(w, p, 1);
      }
    }
  }
  static void read_back(Reader &r, X *p) {
    std::uint8_t flag = r.read<std::uint8_t>();
    if (flag == 0)
      return;
    if (flag != 1)
      throw decode_error("poc: bad copy-back flag");
    if constexpr (std::is_const_v<X>) {
      throw decode_error("poc: copy-back for a pointer to const");
    } else if constexpr (std::is_same_v<X, char>) {
      std::string s = r.read<std::string>();
      std::char_traits<char>::copy(p, s.c_str(), s.size() + 1);
    } else if constexpr (is_reference_only_v<X>) {
      throw decode_error("poc: copy-back for a pointer that was not sent by value");
    } else if constexpr (std::is_class_v<X>) {
      if (!p || is_remote(p))
        throw decode_error("poc: copy-back for a pointer that was not sent by value");
      r.read(*p);
    } else {
      if (!p || is_remote(p) || read_count<X>(r) != 1)
        throw decode_error("poc: copy-back does not match the pointer sent");
      read_elements<X>(r, p, 1);
    }
  }
};

/// Counted pointer arguments (`POC_COUNT`).
template <class X> struct ArgCodec<counted_ptr<X>> {
  using M = std::remove_const_t<X>;
  static void write(Writer &w, const counted_ptr<X> &c) {
    if (!c.data) {
      w.write(static_cast<std::uint8_t>(kNull));
    } else if (is_remote(c.data)) {
      if constexpr (is_reference_only_v<X>) {
        w.write(static_cast<std::uint8_t>(kOne));
        write_reference(w, c.data);
      } else if constexpr (std::is_class_v<X>) {
        w.write(static_cast<std::uint8_t>(kOne));
        w.write(const_cast<M *>(c.data));
      } else {
        ArrayRef ref = array_ref(c.data);
        w.write(static_cast<std::uint8_t>(kRemote));
        w.write_all(ref.id, ref.offset, ref.bytes);
      }
    } else {
      w.write(static_cast<std::uint8_t>(kMany));
      write_elements<M>(w, c.data, c.count);
    }
  }
  static void read_back(Reader &r, const counted_ptr<X> &c) {
    std::uint8_t flag = r.read<std::uint8_t>();
    if (flag == 0)
      return;
    if constexpr (std::is_const_v<X>) {
      throw decode_error("poc: copy-back for a pointer to const");
    } else {
      if (flag != 1 || !c.data || is_remote(c.data) || read_count<X>(r) != c.count)
        throw decode_error("poc: copy-back does not match the array sent");
      read_elements<X>(r, c.data, c.count);
    }
  }
};

/// Server-side storage for a parameter of type P: `read` decodes it, `get`
/// yields the argument to pass, `write_back` encodes the copy-back (only
/// for non-const references and pointers, see `copies_back`).
template <class P> struct ParamSlot {
  using V = std::remove_cvref_t<P>;
  static constexpr bool copies_back =
      std::is_lvalue_reference_v<P> && !std::is_const_v<std::remove_reference_t<P>>;
  V value{};
  void read(Reader &r) { r.read(value); }
  decltype(auto) get() {
    if constexpr (std::is_lvalue_reference_v<P>)
      return static_cast<P>(value);
    else
      return static_cast<V &&>(value);
  }
  void write_back(Writer &w) const { w.write(value); }
};

/// `const std::vector<T>&` parameters of bitwise-serializable elements
/// decode into a vector the serving thread keeps for its next call with
/// such a parameter, so a large argument is neither allocated nor
/// page-faulted in afresh per call (glibc maps buffers of 32 MiB and more
/// anew each time and unmaps them when freed: a 32 MiB argument then took
/// 2.5x as long as MPI_Send). A thread keeps one vector per element type,
/// as large as its largest such argument. A const reference gives the
/// method the argument for the call's duration only, which is what makes
/// the reuse safe; a decode nested on the same thread (a process calling
/// itself) gets a vector of its own.
template <class T, class A>
  requires is_bitwise_serializable_v<T>
struct ParamSlot<const std::vector<T, A> &> {
  static constexpr bool copies_back = false;

  ParamSlot() : borrowed_(!kept().busy) {
    if (borrowed_)
      kept().busy = true;
  }
  ~ParamSlot() {
    if (borrowed_)
      kept().busy = false;
  }
  ParamSlot(const ParamSlot &) = delete;
  ParamSlot &operator=(const ParamSlot &) = delete;

  void read(Reader &r) { r.read(storage()); }
  const std::vector<T, A> &get() { return storage(); }

private:
  struct Kept {
    std::vector<T, A> vector;
    bool busy = false;
  };
  static Kept &kept() {
    thread_local Kept k;
    return k;
  }

  std::vector<T, A> &storage() { return borrowed_ ? kept().vector : own_; }

  bool borrowed_;
  std::vector<T, A> own_;
};

/// Pointer parameters.
template <class X> struct ParamSlot<X *> {
  using M = std::remove_const_t<X>;
  static constexpr bool copies_back = !std::is_const_v<X>;

  X *ptr = nullptr;
  // Decoded pointees owned for the call's duration.
  std::unique_ptr<M> one;
  std::unique_ptr<M[]> many;
  std::size_t count = 0;
  std::string text;

  void read(Reader &r) {
    if constexpr (std::is_class_v<X>) {
      M *p = r.read<M *>();
      if (p && !is_remote(p)) {
        one.reset(p);
        count = 1;
      }
      ptr = p;
    } else {
      std::uint8_t tag = r.read<std::uint8_t>();
      if (tag == kNull)
        return;
      if constexpr (std::is_same_v<M, char>) {
        if (tag != kOne)
          throw decode_error("poc: bad tag for a string parameter");
        text = r.read<std::string>();
        ptr = text.data();
        count = 1;
      } else {
        if (tag == kRemote) {
          if constexpr (std::is_pointer_v<M>) {
            throw decode_error("poc: an array of references cannot be remote");
          } else {
            ArrayRef ref;
            r.read_all(ref.id, ref.offset, ref.bytes);
            ptr = static_cast<X *>(array_address(ref));
            return;
          }
        }
        if (tag != kOne && tag != kMany)
          throw decode_error("poc: bad pointer tag " + std::to_string(tag));
        count = read_count<M>(r);
        if (tag == kOne && count != 1)
          throw decode_error("poc: single-element pointer with a count");
        many.reset(new M[count]);
        read_elements<M>(r, many.get(), count);
        ptr = many.get();
      }
    }
  }
  X *get() const noexcept { return ptr; }
  void write_back(Writer &w) const {
    if constexpr (!std::is_const_v<X>) {
      if (count == 0) {
        w.write(std::uint8_t{0});
        return;
      }
      w.write(std::uint8_t{1});
      if constexpr (std::is_same_v<M, char>) {
        w.write(std::string(ptr));
      } else if constexpr (std::is_class_v<X>) {
        w.write(*one);
      } else {
        write_elements<M>(w, many.get(), count);
      }
    }
  }
};

/// Pointer parameters whose class's pointers are references only
/// (is_reference_only_v): nothing is decoded into storage of the call.
template <class X>
  requires is_reference_only_v<X>
struct ParamSlot<X *> {
  static constexpr bool copies_back = !std::is_const_v<X>;

  X *ptr = nullptr;

  void read(Reader &r) { ptr = read_reference<X>(r); }
  X *get() const noexcept { return ptr; }
  /// The copy-back flag 0: a reference to a process has no copy.
  void write_back(Writer &w) const { w.write(std::uint8_t{0}); }
};

} // namespace detail
} // namespace poc
