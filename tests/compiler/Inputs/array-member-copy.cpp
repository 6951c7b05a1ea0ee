// The reproducer of issue 23, part 0, alone (template-instantiation.cpp).
struct S { int a[1]; };
template <class T> void f(T &x) { x = x; }
void g(S &s) { f(s); }
