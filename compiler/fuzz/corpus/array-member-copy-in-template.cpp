// Issue 23, part 0: poc++ crashed (exit 139) instantiating f<S> after the parse.
struct S { int a[1]; };
template <class T> void f(T &x) { x = x; }
void g(S &s) { f(s); }
