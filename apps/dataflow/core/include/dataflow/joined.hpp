//===- dataflow/joined.hpp - The operands of a join, as one value --------===//
///
/// \file
/// A join (`TaskGraph::join`) takes the values of a whole list of nodes as
/// one parameter, `dataflow::Joined<T>`: a read-only random-access view of
/// its operands in the order of the list. It refers to the operands, which
/// every edge that carries them shares, so nothing is copied; it is valid
/// while the callable runs.
///
//===----------------------------------------------------------------------===//
#pragma once

#include <dataflow/operand.hpp>

#include <cstddef>
#include <iterator>
#include <span>
#include <tuple>

namespace dataflow {

template <class T> class Joined {
public:
  using value_type = T;

  /// Walks the values in order.
  class iterator {
  public:
    using iterator_category = std::forward_iterator_tag;
    using value_type = T;
    using difference_type = std::ptrdiff_t;
    using pointer = const T *;
    using reference = const T &;

    iterator() = default;
    explicit iterator(const Operand *at) : at_(at) {}
    const T &operator*() const { return at_->get<T>(); }
    const T *operator->() const { return &at_->get<T>(); }
    iterator &operator++() {
      ++at_;
      return *this;
    }
    iterator operator++(int) {
      iterator before = *this;
      ++at_;
      return before;
    }
    bool operator==(const iterator &) const = default;

  private:
    const Operand *at_ = nullptr;
  };

  explicit Joined(std::span<const Operand> operands) : operands_(operands) {}

  /// The value of input `k` (the k-th node of the join's list).
  const T &operator[](std::size_t k) const { return operands_[k].get<T>(); }
  std::size_t size() const noexcept { return operands_.size(); }
  bool empty() const noexcept { return operands_.empty(); }
  iterator begin() const { return iterator(operands_.data()); }
  iterator end() const { return iterator(operands_.data() + operands_.size()); }

private:
  std::span<const Operand> operands_;
};

namespace detail {
/// The T of a callable that takes one `Joined<T>` (Args: its parameters),
/// else void.
template <class Args> struct JoinedType {
  using type = void;
};
template <class T> struct JoinedType<std::tuple<Joined<T>>> {
  using type = T;
};
template <class T> struct JoinedType<std::tuple<const Joined<T> &>> {
  using type = T;
};
} // namespace detail

} // namespace dataflow
