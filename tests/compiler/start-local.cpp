// `start` on a local object runs the call on that object, never a copy
// (issue 23, part 2): through its address, in order with the calls started
// on it before (poc/start_on.hpp); where the value is used, a future.
// tests/e2e/start_local.cpp runs the program.
// RUN: %pocxx --translate-only %S/../e2e/start_local.cpp -o - | FileCheck %s --implicit-check-not="::poc::start_local("

// `f()`, `this->f()` and `(*this).f()` in a method.
// The object is passed to the task: `this` is captured only if an argument
// uses it.
// CHECK: ::poc::start_on(this, [=](auto *poc_self) mutable { return poc_self->deposit(100); });
// CHECK-NEXT: ::poc::start_on(this, [=](auto *poc_self) mutable { return poc_self->deposit(10); });
// CHECK-NEXT: ::poc::start_on(::std::addressof((*this)), [=](auto *poc_self) mutable { return poc_self->deposit(1); });

// A dependent object in a template.
// CHECK: ::poc::start_on(::std::addressof(obj), [=](auto *poc_self) mutable { return poc_self->deposit(a); });

// A local variable; its end waits for the calls started on it (a guard
// declared right after it, once).
// CHECK: Account local(10); ::poc::started_calls_guard poc_started_calls_local(::std::addressof(local));
// CHECK-NEXT: ::poc::start_on(::std::addressof(local), [=](auto *poc_self) mutable { return poc_self->deposit(5); });
// CHECK-NOT: poc_started_calls_local

// Through a pointer; a used value is a future.
// CHECK: auto f = ::poc::start_on_future(heap, [=](auto *poc_self) mutable { return poc_self->withdraw(1); });
// CHECK-NEXT: ::poc::start_on(heap, [=](auto *poc_self) mutable { return poc_self->deposit(4); });
// CHECK-NEXT: auto g = ::poc::start_on_future(::std::addressof((*heap)), [=](auto *poc_self) mutable { return poc_self->balance(); });

// CHECK: Worker w(go); ::poc::started_calls_guard poc_started_calls_w(::std::addressof(w));
