//===- dataflow/callable.hpp - What a node's callable takes and gives ----===//
///
/// \file
/// Deduces a callable's parameter and result types (functions, function
/// pointers, lambdas and functors with one non-template `operator()`), so
/// that a node's ports are typed by the code bound to it, and calls it with
/// operands.
///
//===----------------------------------------------------------------------===//
#pragma once

#include <dataflow/operand.hpp>

#include <cstddef>
#include <span>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace dataflow {

/// The result of a node with several outputs: element k goes out on
/// output k (`return dataflow::Outputs<A, B>{a, b};`).
template <class... T> struct Outputs : std::tuple<T...> {
  using std::tuple<T...>::tuple;
};

namespace detail {

template <class F, class = void> struct HasOneCallOperator : std::false_type {};
template <class F>
struct HasOneCallOperator<F, std::void_t<decltype(&F::operator())>> : std::true_type {};

/// True for what a node may be bound to: a function (pointer), or a class
/// with one call operator that is not a template.
template <class F>
inline constexpr bool kTypedCallable =
    HasOneCallOperator<F>::value || std::is_function_v<std::remove_pointer_t<F>>;

/// Parameter and result types of a callable (`kTypedCallable`); nothing
/// for anything else (TaskGraph::node says what to write instead).
template <class F, class = void> struct CallableTraits {
  using Result = void;
  using Args = std::tuple<>;
  static constexpr bool valid = false;
};
template <class F>
struct CallableTraits<F, std::enable_if_t<HasOneCallOperator<F>::value>>
    : CallableTraits<decltype(&F::operator())> {};
template <class R, class... A> struct CallableTraits<R (*)(A...)> {
  static constexpr bool valid = true;
  using Result = R;
  using Args = std::tuple<A...>;
};
template <class R, class... A> struct CallableTraits<R(A...)> : CallableTraits<R (*)(A...)> {};
template <class R, class... A>
struct CallableTraits<R (*)(A...) noexcept> : CallableTraits<R (*)(A...)> {};
template <class R, class C, class... A>
struct CallableTraits<R (C::*)(A...)> : CallableTraits<R (*)(A...)> {};
template <class R, class C, class... A>
struct CallableTraits<R (C::*)(A...) const> : CallableTraits<R (*)(A...)> {};
template <class R, class C, class... A>
struct CallableTraits<R (C::*)(A...) noexcept> : CallableTraits<R (*)(A...)> {};
template <class R, class C, class... A>
struct CallableTraits<R (C::*)(A...) const noexcept> : CallableTraits<R (*)(A...)> {};

/// The type of a callable's first parameter (Args: its parameters), or void.
template <class Args> struct FirstParameter {
  using type = void;
};
template <class A, class... Rest> struct FirstParameter<std::tuple<A, Rest...>> {
  using type = A;
};

template <class T> struct IsOutputs : std::false_type {};
template <class... T> struct IsOutputs<Outputs<T...>> : std::true_type {};

/// The operand type a parameter receives: a value or a const reference.
template <class A> struct InputType {
  static_assert(!std::is_lvalue_reference_v<A> || std::is_const_v<std::remove_reference_t<A>>,
                "a dataflow node takes its operands by value or by const reference: an operand "
                "is shared by every edge that carries it and cannot be changed in place");
  using type = std::remove_cvref_t<A>;
};

template <class... T> std::vector<const Codec *> codecs_of(Outputs<T...> *) {
  return {&codec_of<T>()...};
}

template <class R> std::vector<const Codec *> output_codecs() {
  if constexpr (std::is_void_v<R>)
    return {};
  else if constexpr (IsOutputs<R>::value)
    return codecs_of(static_cast<R *>(nullptr));
  else
    return {&codec_of<R>()};
}

/// Calls `call()`, which returns a node's result of type R, and returns the
/// node's outputs: none for void, one per element of `Outputs<...>`, else one.
template <class R, class Call> std::vector<Operand> outputs_of(Call &&call) {
  if constexpr (std::is_void_v<R>) {
    call();
    return {};
  } else if constexpr (IsOutputs<R>::value) {
    R results = call();
    return std::apply([](auto &...v) { return std::vector<Operand>{Operand::of(std::move(v))...}; },
                      static_cast<typename R::tuple &>(results));
  } else {
    return {Operand::of<R>(call())};
  }
}

/// Calls `f(lead..., operands...)`: parameters `Lead` on are the ports.
template <std::size_t Lead, class F, class R, class Args, std::size_t... I, class... L>
std::vector<Operand> call_with(F &f, std::span<const Operand> in, std::index_sequence<I...>,
                               L... lead) {
  return outputs_of<R>([&]() -> R {
    return f(lead...,
             in[I].get<typename InputType<std::tuple_element_t<Lead + I, Args>>::type>()...);
  });
}

/// Calls `f` with `lead` (the first `Lead` parameters, not ports) and the
/// operands as its other arguments, and returns its outputs.
template <std::size_t Lead, class F, class... L>
std::vector<Operand> call_with_operands(F &f, std::span<const Operand> in, L... lead) {
  using Traits = CallableTraits<F>;
  using Args = typename Traits::Args;
  if constexpr (Traits::valid && std::tuple_size_v<Args> >= Lead)
    return call_with<Lead, F, typename Traits::Result, Args>(
        f, in, std::make_index_sequence<std::tuple_size_v<Args> - Lead>{}, lead...);
  else
    return {}; // the node's static_assert said what is wrong
}

/// The codecs of a callable's parameters from `Lead` on (its ports).
template <std::size_t Lead, class Args, std::size_t... I>
std::vector<const Codec *> port_codecs(std::index_sequence<I...>) {
  return {&codec_of<typename InputType<std::tuple_element_t<Lead + I, Args>>::type>()...};
}
template <class F, std::size_t Lead> std::vector<const Codec *> port_codecs() {
  using Args = typename CallableTraits<F>::Args;
  if constexpr (std::tuple_size_v<Args> < Lead)
    return {};
  else
    return port_codecs<Lead, Args>(std::make_index_sequence<std::tuple_size_v<Args> - Lead>{});
}

} // namespace detail
} // namespace dataflow
