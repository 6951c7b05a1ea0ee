// Calls in templates through a pointer of dependent type (and calls with
// arguments of dependent type): rewritten to helpers named after the method
// that choose at instantiation between the remote wrappers (through the
// remote<T> trait, specialised after each remotable class) and the plain
// call. tests/e2e/templates.cpp runs it.
// RUN: %pocxx --translate-only %S/../e2e/templates.cpp -o - | FileCheck %s

// The helpers and the trait's primary template follow the #include.
// CHECK: #include <poc/gen/runtime.hpp>
// CHECK-NEXT: #line 4 "{{.*}}"
// CHECK: template <class T> struct remote {
// CHECK-NEXT: static constexpr bool poc_remotable = false;
// CHECK: template <class P, class... A>
// CHECK-NEXT: decltype(auto) call_add(P &&self, A &&...a) {
// CHECK-NEXT: if constexpr (is_remote_target<P>)
// CHECK-NEXT: return remote_target<P>::poc_call::add(self, std::forward<A>(a)...);
// CHECK-NEXT: else
// CHECK-NEXT: return std::forward<P>(self)->add(std::forward<A>(a)...);
// CHECK: template <class P, class... A>
// CHECK-NEXT: auto future_add(P &&self, A &&...a) {
// CHECK-NEXT: if constexpr (is_remote_target<P>)
// CHECK-NEXT: return remote_target<P>::poc_future::add(self, std::forward<A>(a)...);
// CHECK-NEXT: else
// CHECK-NEXT: return ::poc::start_on_future(&*self, [... a = std::forward<A>(a)](auto *poc_self) mutable {
// CHECK: template <class P, class... A>
// CHECK-NEXT: void start_add(P &&self, A &&...a) {
// CHECK-NEXT: if constexpr (is_remote_target<P>)
// CHECK-NEXT: remote_target<P>::poc_start::add(self, std::forward<A>(a)...);
// CHECK-NEXT: else
// CHECK-NEXT: ::poc::start_on(&*self, [... a = std::forward<A>(a)](auto *poc_self) mutable {
// CHECK: decltype(auto) call_bump(P &&self, A &&...a) {
// CHECK: decltype(auto) call_get(P &&self, A &&...a) {

// Right after Counter: its interface and the overload sets, by variant.
// CHECK: struct Counter_client : Counter_interface {
// CHECK: template <> struct remote<::Counter> {
// CHECK-NEXT: static constexpr bool poc_remotable = true;
// CHECK-NEXT: struct poc_call {
// CHECK-NEXT: static int add(::Counter *self, int k);
// CHECK-NEXT: static int add(::Counter *self, int k, int times);
// CHECK-NEXT: static void bump(::Counter *self, int &by);
// CHECK-NEXT: static int call(const ::Counter *self, int k);
// CHECK-NEXT: static int get(const ::Counter *self);
// CHECK-NEXT: };
// CHECK-NEXT: struct poc_future {
// CHECK-NEXT: static ::poc::future<int> add(::Counter *self, int k);
// CHECK: struct poc_start {
// CHECK-NEXT: static void add(::Counter *self, int k);
// CHECK: #line 24 "{{.*}}templates.cpp"
// CHECK-NEXT: class Logger {

// The rewritten calls; Logger, never a process, gets no specialisation.
// CHECK-NOT: remote<::Logger>
// CHECK: last = ::poc_gen::call_add(target, x);
// CHECK: ::poc_gen::start_add(t, k);
// CHECK: auto f = ::poc_gen::future_add(t, k);
// CHECK: return ::poc_gen::call_get(&(*t)) + r;
// CHECK: int addAs(Counter *c, N k) { return ::poc_gen::call_add(c, k); }
// CHECK: ::poc_gen::call_bump(t, by);
// CHECK: auto twice = [](auto *p) { return ::poc_gen::call_get(p) * 2; };

// The forwarders, defined with the client wrappers they call.
// CHECK: inline int poc_gen::remote<::Counter>::poc_call::add(::Counter *self, int k) {
// CHECK-NEXT: return ::poc_gen::Counter_client::add_0(self, k);
// CHECK: inline ::poc::future<int> poc_gen::remote<::Counter>::poc_future::add(::Counter *self, int k) {
// CHECK-NEXT: return ::poc_gen::Counter_client::add_0_future(self, k);
// CHECK: inline void poc_gen::remote<::Counter>::poc_start::add(::Counter *self, int k) {
// CHECK-NEXT: return ::poc_gen::Counter_client::add_0_start(self, k);
// CHECK: inline void poc_gen::remote<::Counter>::poc_call::bump(::Counter *self, int &by) {
// CHECK-NEXT: return ::poc_gen::Counter_client::bump_0(self, by);
