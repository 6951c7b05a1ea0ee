#pragma once
/// \file
/// `start` of a method of a local object (issue 23, part 2): what poc++
/// translates `start obj.f(x)`, `start this->f(x)` and `start p->f(x)` with
/// `p` a pointer to a local object into. The call runs on the object itself
/// (never a copy), concurrently with the caller, and the calls started on
/// one object run one at a time in the order they were started, as a
/// process serves its calls; `poc::sync()` waits for them. A future of one
/// (`auto f = start obj.g(x)`) reports its result, or its error, through the
/// future.

#include <poc/future.hpp>
#include <poc/sync.hpp>

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <memory>
#include <mutex>
#include <optional>
#include <type_traits>
#include <unordered_map>
#include <utility>

namespace poc {
namespace detail {

/// The started calls on local objects, by object: tickets taken when a call
/// is started, served in ticket order.
class LocalCallOrder {
public:
  static LocalCallOrder &instance() {
    static LocalCallOrder order;
    return order;
  }
  std::uint64_t take(const void *object) {
    std::lock_guard<std::mutex> g(mutex_);
    return queues_[object].next++;
  }
  void wait_turn(const void *object, std::uint64_t ticket) {
    std::unique_lock<std::mutex> lk(mutex_);
    turn_.wait(lk, [&] { return queues_[object].serving == ticket; });
  }
  void done(const void *object) {
    std::lock_guard<std::mutex> g(mutex_);
    auto it = queues_.find(object);
    if (++it->second.serving == it->second.next)
      queues_.erase(it);
    turn_.notify_all();
  }

private:
  struct Queue {
    std::uint64_t next = 0, serving = 0;
  };
  std::mutex mutex_;
  std::condition_variable turn_;
  std::unordered_map<const void *, Queue> queues_;
};

/// One started call's turn on its object: waits for it, ends it.
class LocalCallTurn {
public:
  LocalCallTurn(const void *object, std::uint64_t ticket) : object_(object) {
    LocalCallOrder::instance().wait_turn(object, ticket);
  }
  ~LocalCallTurn() { LocalCallOrder::instance().done(object_); }
  LocalCallTurn(const LocalCallTurn &) = delete;
  LocalCallTurn &operator=(const LocalCallTurn &) = delete;

private:
  const void *object_;
};

/// The state of a future of a started local call, set by its task.
template <class T> class LocalCallState final : public FutureState<T> {
public:
  bool ready() override { return done_.load(std::memory_order_acquire); }
  void wait() override {
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

/// `start object->f(args)` on a local object: runs `call(object)` as a
/// task, after the calls started on the same object before it.
template <class T, class F> void start_on(T *object, F &&call) {
  const void *key = static_cast<const void *>(object);
  std::uint64_t ticket = detail::LocalCallOrder::instance().take(key);
  detail::start_local_task([object, key, ticket, fn = std::forward<F>(call)]() mutable {
    detail::LocalCallTurn turn(key, ticket);
    fn(object);
  });
}

/// `auto f = start object->f(args)` on a local object: as start_on, and the
/// future of the call's result.
template <class T, class F> auto start_on_future(T *object, F &&call) {
  using R = std::decay_t<decltype(call(object))>;
  auto state = std::make_shared<detail::LocalCallState<R>>();
  const void *key = static_cast<const void *>(object);
  std::uint64_t ticket = detail::LocalCallOrder::instance().take(key);
  detail::start_local_task([object, key, ticket, state, fn = std::forward<F>(call)]() mutable {
    detail::LocalCallTurn turn(key, ticket);
    auto bound = [&]() -> decltype(auto) { return fn(object); };
    state->run(bound);
  });
  return future<R>(state);
}

} // namespace poc
