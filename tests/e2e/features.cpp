// Remote classes with every supported feature: constructors with arguments,
// overloads, const methods, default arguments, values, const and non-const
// references, pointers to objects (copied back), STL types, user classes
// with private fields, inheritance with virtual methods and destructors,
// namespaces and class templates.
#include <cstdio>
#include <map>
#include <string>
#include <vector>

namespace geo {
struct Point {
  double x = 0, y = 0;
};
class Shape {
public:
  Shape() = default;
  virtual ~Shape() = default;
  virtual double area() const { return 0; }
  std::string kind() const { return "shape"; }
};
class Rect : public Shape {
public:
  Rect(Point a, Point b) : a(a), b(b) {}
  double area() const override { return (b.x - a.x) * (b.y - a.y); }
  void move(const Point &d) {
    a.x += d.x;
    a.y += d.y;
    b.x += d.x;
    b.y += d.y;
  }
  Point corner() const { return a; }
  void grow(Point &p) {
    p.x *= 2;
    p.y *= 2;
  }

private:
  Point a, b;
};
} // namespace geo

class Record {
public:
  Record() = default;
  Record(std::string n, int v) : name(std::move(n)), values{v, v + 1} {}
  std::string describe() const { return name + ":" + std::to_string(values.size()); }

private:
  std::string name;
  std::vector<int> values;
};

template <class T> class Accumulator {
public:
  Accumulator() = default;
  void add(T x) {
    sum += x;
    ++count;
  }
  void add(T x, int times) {
    sum += x * times;
    count += times;
  }
  T total() const { return sum; }
  int n(int scale = 1) const { return count * scale; }

private:
  T sum{};
  int count = 0;
};

class Store {
public:
  Store() = default;
  void put(const Record &r) { recs.push_back(r); }
  std::vector<Record> all() const { return recs; }
  std::map<std::string, int> index() const {
    std::map<std::string, int> m;
    for (size_t i = 0; i < recs.size(); ++i)
      m[recs[i].describe()] = (int)i;
    return m;
  }
  void fill(int &count, geo::Point *p) const {
    count = (int)recs.size();
    p->x = 7;
  }

private:
  std::vector<Record> recs;
};

int main() {
  geo::Rect *r = new ("m") geo::Rect(geo::Point{0, 0}, geo::Point{2, 3});
  geo::Shape *s = r;
  std::printf("area %.1f kind %s\n", s->area(), s->kind().c_str());
  r->move(geo::Point{1, 1});
  geo::Point c = r->corner();
  geo::Point g{1, 2};
  r->grow(g);
  std::printf("corner %.1f %.1f grown %.1f %.1f\n", c.x, c.y, g.x, g.y);
  delete s;

  auto *acc = new ("m") Accumulator<double>();
  acc->add(1.5);
  acc->add(2.0, 3);
  std::printf("total %.1f n %d %d\n", acc->total(), acc->n(), acc->n(10));
  delete acc;

  Store *st = new ("m") Store;
  st->put(Record("a", 1));
  st->put(Record("bb", 2));
  for (const Record &rec : st->all())
    std::printf("rec %s\n", rec.describe().c_str());
  for (auto &[k, v] : st->index())
    std::printf("idx %s %d\n", k.c_str(), v);
  int count = 0;
  geo::Point p;
  st->fill(count, &p);
  std::printf("fill %d %.1f\n", count, p.x);
  delete st;
  return 0;
}
