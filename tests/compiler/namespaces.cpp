// Declarations go before the first namespace-scope declaration that uses a
// class, leaving and re-entering its namespaces; a class used inside its
// own definition is forward-declared first. #line maps the user's lines
// back to this file.
// RUN: %pocxx --translate-only %s -o %t.cpp
// RUN: %nochecks < %t.cpp | FileCheck %s
namespace app {
namespace detail {
// CHECK: namespace app {
// CHECK-NEXT: namespace detail {
// CHECK-NEXT: #line [[#]] "{{.*}}namespaces.cpp.tmp.cpp"
// CHECK-NEXT: } // namespace detail
// CHECK-NEXT: } // namespace app
// CHECK-NEXT: namespace app {
// CHECK-NEXT: namespace detail {
// CHECK-NEXT: class Node;
// CHECK-NEXT: }
// CHECK-NEXT: } // namespace app
// CHECK-NEXT: // poc++: remote interface of class 'app::detail::Node' (namespaces.cpp:[[#@LINE+7]]).
// CHECK: static int depth_0(const ::app::detail::Node *self);
// CHECK: } // namespace poc_gen
// CHECK-NEXT: namespace app {
// CHECK-NEXT: namespace detail {
// CHECK-NEXT: #line [[#@LINE+2]] "{{.*}}namespaces.cpp"
// CHECK-NEXT: class Node {
class Node {
public:
  explicit Node(Node *next) : next(next) {}
  int depth() const { return next ? next->depth() + 1 : 0; }
  // CHECK: int depth() const { return next ? ::poc_gen::app_detail_Node_client::depth_0(next) + 1 : 0; }

private:
  Node *next;
};
int chain(const char *m) {
  Node *a = new (m) Node(nullptr);
  // CHECK: Node *a = ::poc_gen::app_detail_Node_client::create_0(m, nullptr);
  Node *b = new (m) Node(a);
  int d = b->depth();
  delete b;
  delete a;
  return d;
}
} // namespace detail
} // namespace app
int main() { return app::detail::chain("m"); }
// CHECK: int poc_user_main() { return app::detail::chain("m"); }
