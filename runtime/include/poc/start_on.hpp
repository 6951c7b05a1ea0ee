#pragma once
/// \file
/// `start` of a method of a local object (issue 23, part 2): what poc++
/// translates `start obj.f(x)`, `start this->f(x)` and `start p->f(x)` with
/// `p` a pointer to a local object into, and what the generated client of a
/// process class does when a started call's object is local. The call runs
/// on the object itself (never a copy), concurrently with the caller, and
/// the calls started on one object run one at a time in the order they were
/// started, as a process serves its calls: one thread serves an object
/// while it has started calls (not one thread per call). `poc::sync()` waits
/// for them. A future of one (`auto f = start obj.g(x)`) reports its result,
/// or its error, through the future.

#include <poc/future.hpp>
#include <poc/sync.hpp>

#include <atomic>
#include <exception>
#include <memory>
#include <optional>
#include <type_traits>
#include <typeinfo>
#include <utility>

namespace poc {
namespace detail {

/// A started call on a local object, waiting for its turn.
class LocalCall {
public:
  virtual ~LocalCall() = default;
  virtual void run() = 0;
};

/// A started call given as a function object.
template <class F> class LocalCallOf final : public LocalCall {
public:
  explicit LocalCallOf(F f) : f_(std::move(f)) {}
  void run() override { f_(); }

private:
  F f_;
};

/// Queues `call` on `object`: it runs after the calls started on the object
/// before it, one at a time, on a thread that serves the object while it
/// has calls; the caller's next poc::sync() waits for it and reports what
/// it threw (implemented by the runtime). When the runtime is not running
/// (poc::running() is false) the call runs at once. `type` is the object's
/// class, which the report of an error nobody waited for names.
void start_on_object(const void *object, const std::type_info &type,
                     std::unique_ptr<LocalCall> call);

/// Waits until no call started on `object` is queued or running (at once
/// when the runtime is not running).
void wait_for_started_calls(const void *object) noexcept;

/// start_on_object with a function object.
template <class F> void start_on_object(const void *object, const std::type_info &type, F &&call) {
  start_on_object(
      object, type,
      std::unique_ptr<LocalCall>(new LocalCallOf<std::decay_t<F>>(std::forward<F>(call))));
}

/// The state of a future of a started local call, set by its task.
template <class T> class LocalCallState final : public FutureState<T> {
public:
  bool ready() override { return done_.load(std::memory_order_acquire); }
  void wait() override {
    if (ready()) // always, without the runtime: the call ran when started
      return;
    poc::wait_until([this] { return done_.load(std::memory_order_acquire); });
  }
  T get() override {
    wait();
    if (error_)
      std::rethrow_exception(error_);
    if constexpr (!std::is_void_v<T>)
      return std::move(*value_);
  }
  template <class F> void run(F &call) {
    try {
      if constexpr (std::is_void_v<T>)
        call();
      else
        value_.emplace(call());
    } catch (...) {
      error_ = std::current_exception();
    }
    done_.store(true, std::memory_order_release);
    poc::notify_waiters();
  }

private:
  std::atomic<bool> done_{false};
  std::exception_ptr error_;
  std::optional<std::conditional_t<std::is_void_v<T>, char, T>> value_;
};

} // namespace detail

/// What poc++ declares right after a local variable that calls are started
/// on (`start x.f()`): destroyed just before the variable, it waits for
/// those calls, as a std::jthread joins its thread, so that none runs on a
/// destroyed object (docs/language.md, "`start`: asynchrony").
class started_calls_guard {
public:
  explicit started_calls_guard(const void *object) noexcept : object_(object) {}
  ~started_calls_guard() { detail::wait_for_started_calls(object_); }
  started_calls_guard(const started_calls_guard &) = delete;
  started_calls_guard &operator=(const started_calls_guard &) = delete;

private:
  const void *object_;
};

/// `start object->f(args)` on a local object: runs `call(object)` after the
/// calls started on the same object before it (by any caller), as a process
/// serves its calls.
template <class T, class F> void start_on(T *object, F &&call) {
  detail::start_on_object(static_cast<const void *>(object), typeid(T),
                          [object, fn = std::forward<F>(call)]() mutable { fn(object); });
}

/// `auto f = start object->f(args)` on a local object: as start_on, and the
/// future of the call's result.
template <class T, class F> auto start_on_future(T *object, F &&call) {
  using R = std::decay_t<decltype(call(object))>;
  auto state = std::make_shared<detail::LocalCallState<R>>();
  detail::start_on_object(static_cast<const void *>(object), typeid(T),
                          [object, state, fn = std::forward<F>(call)]() mutable {
                            auto bound = [&]() -> decltype(auto) { return fn(object); };
                            state->run(bound);
                          });
  return future<R>(state);
}

} // namespace poc
