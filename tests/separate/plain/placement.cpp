// Plain C++ with a placement new, which poc++ reads twice (it may be a
// process creation) and still compiles exactly as clang++ does.
#include <cstdio>
#include <new>

struct Point {
  int x, y;
};

int main() {
  alignas(Point) unsigned char storage[sizeof(Point)];
  Point *p = new (storage) Point{3, 4};
  std::printf("%d\n", p->x * p->y);
}
