// The renaming of the user's main (MainRenamer): every declaration and use
// of main in the main file becomes poc_user_main, a main that falls off its
// end returns 0, and the generated main runs it. A name main that is not
// the program's main stays.
// RUN: %pocxx --translate-only %s -o - 2>&1 | %nochecks | FileCheck %s --implicit-check-not=error:

class Counter {
public:
  int add(int d) { return n += d; }

private:
  int n = 0;
};

namespace tool {
int main() { return 7; }
// CHECK: int main() { return 7; }
} // namespace tool

int main(int, char **);
// CHECK: int poc_user_main(int, char **);
static int (*entry)(int, char **) = &main;
// CHECK: static int (*entry)(int, char **) = &poc_user_main;

int main(int argc, char **) {
  // CHECK: int poc_user_main(int argc, char **) {
  Counter *c = new ("m") Counter();
  c->add(argc + tool::main());
  delete c;
  // CHECK: ::poc::destroy(c);
  // CHECK-NEXT: return 0; }
}

// CHECK: int main(int argc, char **argv) {
// CHECK-NEXT: return ::poc::run(argc, argv, &poc_user_main);
