// `new (m) T(args)` with a template parameter T: rewritten to the helper
// ::poc_gen::create<T> (start_create<T> when started), which reaches the
// creation wrappers of each class the file names as T through remote<T>.
// RUN: %pocxx --translate-only %s -o - | FileCheck %s
// A T that is no such class fails to compile with a static_assert saying so.
// RUN: not %pocxx -fsyntax-only -DMAKE_INT %s 2>&1 | FileCheck %s --check-prefix=NOTCLASS
class Counter {
public:
  explicit Counter(int first) : n(first) {}
  int get() const { return n; }

private:
  int n;
};

// CHECK: template <class T, class... A>
// CHECK-NEXT: T *create(const ::poc::machine &where, A &&...a) {
// CHECK: template <class T, class... A>
// CHECK-NEXT: T *start_create(const ::poc::machine &where, A &&...a) {

// CHECK: template <> struct remote<::Counter> {
// CHECK: struct poc_create {
// CHECK-NEXT: static ::Counter *create(const ::poc::machine &where, int first);
// CHECK-NEXT: static ::Counter *start_create(const ::poc::machine &where, int first);

template <class T> T *make(const char *where, int v) { return new (where) T(v); }
// CHECK: template <class T> T *make(const char *where, int v) { return ::poc_gen::create<T>(where, v); }
template <class T> T *makeStarted(const char *where, int v) {
  T *p;
  start p = new (where) T(v);
  // CHECK: p = ::poc_gen::start_create<T>(where, v);
  return p;
}

int main() {
  Counter *c = make<Counter>("m", 1);
  Counter *d = makeStarted<Counter>("m", 2);
#ifdef MAKE_INT
  int *i = make<int>("m", 3);
  // NOTCLASS: error: static assertion failed due to requirement 'remote<int>::poc_remotable': poc++: new (m) T(...) in a template creates a process only of a class that this file names as T (e.g. make<Counter>(...)) or creates elsewhere
#endif
  return c->get() + d->get() == 3 ? 0 : 1;
}
// CHECK: inline ::Counter *poc_gen::remote<::Counter>::poc_create::create(
// CHECK: return ::poc_gen::Counter_client::create_0(where, first);
