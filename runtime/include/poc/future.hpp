#pragma once
/// \file
/// `poc::future<T>`: the result of a started call.

#include <poc/errors.hpp>
#include <poc/transport.hpp>

#include <exception>
#include <functional>
#include <memory>
#include <optional>
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
  Reader r(m.payload(), &m);
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

template <class T, class U, class F> class ThenState final : public FutureState<U> {
public:
  ThenState(std::shared_ptr<FutureState<T>> parent, F fn)
      : parent_(std::move(parent)), fn_(std::move(fn)) {}
  bool ready() override { return parent_->ready(); }
  void wait() override { parent_->wait(); }
  U get() override {
    if constexpr (std::is_void_v<T>) {
      parent_->get();
      return fn_();
    } else {
      return fn_(parent_->get());
    }
  }

private:
  std::shared_ptr<FutureState<T>> parent_;
  F fn_;
};

/// Waits for every part; `get` rethrows the first part's error.
class AllState final : public FutureState<void> {
public:
  struct Part {
    std::function<bool()> ready;
    std::function<void()> wait;
    std::function<void()> get;
  };
  explicit AllState(std::vector<Part> parts) : parts_(std::move(parts)) {}
  bool ready() override {
    for (auto &p : parts_)
      if (!p.ready())
        return false;
    return true;
  }
  void wait() override {
    for (auto &p : parts_)
      p.wait();
  }
  void get() override {
    std::exception_ptr first;
    for (auto &p : parts_) {
      try {
        p.get();
      } catch (...) {
        if (!first)
          first = std::current_exception();
      }
    }
    if (first)
      std::rethrow_exception(first);
  }

private:
  std::vector<Part> parts_;
};

template <class T> std::shared_ptr<FutureState<T>> state_of(const future<T> &f);

} // namespace detail

/// The result of `start p->f(args)` for a method with a result. Like
/// std::future: `get()` waits and returns the value (or throws the
/// `remote_error` the method raised) and may be called once.
template <class T> class future {
public:
  future() = default;
  explicit future(std::shared_ptr<detail::FutureState<T>> state)
      : state_(std::move(state)) {}

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

  /// A future of `fn(get())` (or `fn()` for future<void>). `fn` runs in the
  /// thread that calls get() on the returned future; this future becomes
  /// invalid.
  template <class F> auto then(F fn) {
    using U = std::conditional_t<std::is_void_v<T>, std::invoke_result<F>,
                                 std::invoke_result<F, T>>;
    using R = typename U::type;
    auto s = std::move(state_);
    if (!s)
      throw usage_error("poc::future::then() on an invalid future");
    return future<R>(std::make_shared<detail::ThenState<T, R, F>>(std::move(s),
                                                                  std::move(fn)));
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
template <class T> AllState::Part part_of(const future<T> &f) {
  auto s = state_of(f);
  return {[s] { return s->ready(); }, [s] { s->wait(); }, [s] { s->get(); }};
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

/// A future<void> that is ready when all `fs` are; its get() consumes
/// their results and rethrows the first error. The `fs` stay valid, but
/// their results are consumed by the returned future's get().
template <class... T> future<void> when_all(const future<T> &...fs) {
  return future<void>(std::make_shared<detail::AllState>(
      std::vector<detail::AllState::Part>{detail::part_of(fs)...}));
}

/// when_all over a vector of futures.
template <class T> future<void> when_all(const std::vector<future<T>> &fs) {
  std::vector<detail::AllState::Part> parts;
  parts.reserve(fs.size());
  for (const auto &f : fs)
    parts.push_back(detail::part_of(f));
  return future<void>(std::make_shared<detail::AllState>(std::move(parts)));
}

} // namespace poc
