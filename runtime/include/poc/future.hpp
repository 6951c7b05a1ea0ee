#pragma once
/// \file
/// `poc::future<T>`: the result of a started call.

#include <poc/errors.hpp>
#include <poc/transport.hpp>

#include <cstddef>
#include <exception>
#include <memory>
#include <optional>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace poc {

template <class T> class future;

namespace detail {

/// What a future refers to: a reply to come, a value, or a continuation.
template <class T> class FutureState {
public:
  virtual ~FutureState() = default;
  virtual bool ready() = 0;
  virtual void wait() = 0;
  /// Produces the value (or throws the call's error); called at most once.
  virtual T get() = 0;
};

template <class T> T decode_result(Message &m) {
  Reader r(body_of(m), &blocks_of(m));
  if constexpr (std::is_void_v<T>) {
    r.expect_end();
  } else {
    T value = r.template read<T>();
    r.expect_end();
    return value;
  }
}

template <class T> class ReplyState final : public FutureState<T> {
public:
  explicit ReplyState(std::shared_ptr<ReplySlot> slot) : slot_(std::move(slot)) {}
  bool ready() override { return reply_ready(*slot_); }
  void wait() override { reply_wait(*slot_); }
  T get() override {
    MessagePtr m = reply_take(*slot_);
    return decode_result<T>(*m);
  }

private:
  std::shared_ptr<ReplySlot> slot_;
};

template <class T> class ValueState final : public FutureState<T> {
public:
  explicit ValueState(T v) : value_(std::move(v)) {}
  bool ready() override { return true; }
  void wait() override {}
  T get() override { return std::move(value_); }

private:
  T value_;
};

template <> class ValueState<void> final : public FutureState<void> {
public:
  bool ready() override { return true; }
  void wait() override {}
  void get() override {}
};

template <class T> struct is_future : std::false_type {};
template <class T> struct is_future<future<T>> : std::true_type {};

/// What `f.then(fn)` is a future of: fn's result, or the value of the
/// future fn returns (continuations that start more calls flatten).
template <class R> struct then_value {
  using type = R;
};
template <class V> struct then_value<future<V>> {
  using type = V;
};

template <class T, class U, class F> class ThenState final : public FutureState<U> {
public:
  ThenState(std::shared_ptr<FutureState<T>> parent, F fn)
      : parent_(std::move(parent)), fn_(std::move(fn)) {}
  bool ready() override { return parent_->ready(); }
  void wait() override { parent_->wait(); }
  U get() override {
    if constexpr (is_future<std::decay_t<decltype(call())>>::value)
      return call().get();
    else
      return call();
  }

private:
  decltype(auto) call() {
    if constexpr (std::is_void_v<T>) {
      parent_->get();
      return fn_();
    } else {
      return fn_(parent_->get());
    }
  }
  std::shared_ptr<FutureState<T>> parent_;
  F fn_;
};

/// The values a future of T contributes to when_all: none for void.
template <class T>
using value_tuple = std::conditional_t<std::is_void_v<T>, std::tuple<>, std::tuple<T>>;
/// The value of when_all(future<T>...): the tuple of the non-void values,
/// or void when there are none.
template <class... T>
using when_all_tuple = decltype(std::tuple_cat(std::declval<value_tuple<T>>()...));
template <class Tuple>
using when_all_value = std::conditional_t<std::tuple_size_v<Tuple> == 0, void, Tuple>;

/// Gets every part, in order, so that each one's copy-backs happen; then
/// rethrows the first error. Holds the values in \p out (by index).
template <class T, class Out>
void get_part(FutureState<T> &s, Out &out, std::exception_ptr &first) {
  try {
    if constexpr (std::is_void_v<T>) {
      s.get();
      out.emplace();
    } else {
      out.emplace(s.get());
    }
  } catch (...) {
    if (!first)
      first = std::current_exception();
  }
}

/// when_all of futures of different types.
template <class... T>
class AllOfState final : public FutureState<when_all_value<when_all_tuple<T...>>> {
  using Value = when_all_value<when_all_tuple<T...>>;

public:
  explicit AllOfState(std::shared_ptr<FutureState<T>>... parts) : parts_(std::move(parts)...) {}
  bool ready() override {
    return std::apply([](auto &...p) { return (p->ready() && ...); }, parts_);
  }
  void wait() override {
    std::apply([](auto &...p) { (p->wait(), ...); }, parts_);
  }
  Value get() override {
    std::tuple<std::optional<value_tuple<T>>...> values;
    std::exception_ptr first;
    [&]<std::size_t... I>(std::index_sequence<I...>) {
      (get_part(*std::get<I>(parts_), std::get<I>(values), first), ...);
    }(std::index_sequence_for<T...>{});
    if (first)
      std::rethrow_exception(first);
    if constexpr (!std::is_void_v<Value>)
      return std::apply([](auto &...v) { return std::tuple_cat(std::move(*v)...); }, values);
  }

private:
  std::tuple<std::shared_ptr<FutureState<T>>...> parts_;
};

/// when_all of a vector of futures of one type: the vector of their values.
template <class T>
class AllOfVectorState final
    : public FutureState<std::conditional_t<std::is_void_v<T>, void, std::vector<T>>> {
  using Value = std::conditional_t<std::is_void_v<T>, void, std::vector<T>>;

public:
  explicit AllOfVectorState(std::vector<std::shared_ptr<FutureState<T>>> parts)
      : parts_(std::move(parts)) {}
  bool ready() override {
    for (auto &p : parts_)
      if (!p->ready())
        return false;
    return true;
  }
  void wait() override {
    for (auto &p : parts_)
      p->wait();
  }
  Value get() override {
    std::vector<std::optional<value_tuple<T>>> values(parts_.size());
    std::exception_ptr first;
    for (std::size_t i = 0; i < parts_.size(); ++i)
      get_part(*parts_[i], values[i], first);
    if (first)
      std::rethrow_exception(first);
    if constexpr (!std::is_void_v<T>) {
      std::vector<T> out;
      out.reserve(values.size());
      for (auto &v : values)
        out.push_back(std::move(std::get<0>(*v)));
      return out;
    }
  }

private:
  std::vector<std::shared_ptr<FutureState<T>>> parts_;
};

template <class T> std::shared_ptr<FutureState<T>> state_of(const future<T> &f);

} // namespace detail

/// The result of `start p->f(args)` for a method with a result. Like
/// std::future: `get()` waits and returns the value (or throws the
/// `remote_error` the method raised) and may be called once.
template <class T> class future {
public:
  future() = default;
  explicit future(std::shared_ptr<detail::FutureState<T>> state) : state_(std::move(state)) {}

  /// True if this future refers to a result (not default-constructed, not
  /// yet consumed by get()).
  bool valid() const noexcept { return state_ != nullptr; }
  /// True if get() would not wait.
  bool ready() const { return checked().ready(); }
  /// Waits until the result is in.
  void wait() const { checked().wait(); }
  /// Waits and returns the result; the future becomes invalid.
  T get() {
    auto s = std::move(state_);
    if (!s)
      throw usage_error("poc::future::get() on an invalid future");
    return s->get();
  }

  /// A future of `fn(get())` (or `fn()` for future<void>); if `fn` returns
  /// a future, the future of its value, so continuations chain:
  /// `f.then(g).then(h)`. `fn` runs in the thread that calls get() on the
  /// returned future; this future becomes invalid.
  template <class F> auto then(F fn) {
    using U =
        std::conditional_t<std::is_void_v<T>, std::invoke_result<F>, std::invoke_result<F, T>>;
    using R = typename detail::then_value<typename U::type>::type;
    auto s = std::move(state_);
    if (!s)
      throw usage_error("poc::future::then() on an invalid future");
    return future<R>(std::make_shared<detail::ThenState<T, R, F>>(std::move(s), std::move(fn)));
  }

private:
  friend std::shared_ptr<detail::FutureState<T>> detail::state_of<T>(const future<T> &);
  detail::FutureState<T> &checked() const {
    if (!state_)
      throw usage_error("poc::future used after get() or default construction");
    return *state_;
  }
  std::shared_ptr<detail::FutureState<T>> state_;
};

namespace detail {
template <class T> std::shared_ptr<FutureState<T>> state_of(const future<T> &f) {
  if (!f.state_)
    throw usage_error("poc::when_all of an invalid future");
  return f.state_;
}
} // namespace detail

/// A future that is ready with `value` (what a started call on a local
/// object yields).
template <class T> future<std::decay_t<T>> make_ready_future(T &&value) {
  return future<std::decay_t<T>>(
      std::make_shared<detail::ValueState<std::decay_t<T>>>(std::forward<T>(value)));
}
/// A ready future<void>.
inline future<void> make_ready_future() {
  return future<void>(std::make_shared<detail::ValueState<void>>());
}

/// A future ready when all `fs` are, of the tuple of their values in
/// order (void ones contribute nothing; future<void> if all are void), as
/// UPC++'s when_all concatenates its futures' values. Its get() consumes
/// every result (so each one's copy-backs happen) and then rethrows the
/// first error. The `fs` stay valid, but their results are consumed by
/// the returned future's get().
template <class... T>
future<detail::when_all_value<detail::when_all_tuple<T...>>> when_all(const future<T> &...fs) {
  using Value = detail::when_all_value<detail::when_all_tuple<T...>>;
  return future<Value>(std::make_shared<detail::AllOfState<T...>>(detail::state_of(fs)...));
}

/// when_all over a vector of futures: a future of the vector of their
/// values (future<void> for futures of void).
template <class T>
future<std::conditional_t<std::is_void_v<T>, void, std::vector<T>>>
when_all(const std::vector<future<T>> &fs) {
  std::vector<std::shared_ptr<detail::FutureState<T>>> parts;
  parts.reserve(fs.size());
  for (const auto &f : fs)
    parts.push_back(detail::state_of(f));
  using Value = std::conditional_t<std::is_void_v<T>, void, std::vector<T>>;
  return future<Value>(std::make_shared<detail::AllOfVectorState<T>>(std::move(parts)));
}

} // namespace poc
