// Futures of calls that copy arguments back: the client's _future wrapper
// hands the copy-back arguments to start_future, which writes them when the
// future is waited for (tests/e2e/future_copy_back.cpp runs it).
// RUN: %pocxx --translate-only %S/../e2e/future_copy_back.cpp -o - | FileCheck %s

// Every method has a _future wrapper, copy-backs or not.
// CHECK: static ::poc::future<int> score_0_future(::Scorer *self, const ::std::string &word, ::Tally &t);
// CHECK: static ::poc::future<int> twice_0_future(::Scorer *self, int &x, ::std::vector<int> *v);

// CHECK: auto f = ::poc_gen::Scorer_client::score_0_future(s, "alpha", t);
// CHECK: auto g = ::poc_gen::Scorer_client::twice_0_future(s, x, &seen);

// CHECK-LABEL: poc_gen::Scorer_client::score_0_future(::Scorer *self,
// CHECK: if (!::poc::is_remote(self))
// CHECK-NEXT: return ::poc::start_on_future(self, [self, word, &t](auto *) mutable { return self->score(word, t); });
// CHECK-NEXT: ::poc::Call call(self, Scorer_interface::score_0, "Scorer::score");
// CHECK-NEXT: call.args(word, t);
// CHECK-NEXT: return call.start_future<int>(t);
// CHECK-LABEL: poc_gen::Scorer_client::twice_0_future(::Scorer *self, int &x,
// CHECK: call.args(x, v);
// CHECK-NEXT: return call.start_future<int>(x, v);
