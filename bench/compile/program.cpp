// A 300-line process-oriented program for the compile-time benchmark:
// several remote classes (a key-value store, a matrix block worker, a
// statistics collector, a pipeline of stages, a process group), remote
// arrays and `start`.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <numeric>
#include <string>
#include <vector>

namespace bench {

/// A record stored by the key-value store.
struct Entry {
  std::string key;
  std::vector<double> values;
  int version = 0;
};

/// A key-value store process.
class Store {
public:
  Store() = default;
  explicit Store(std::string name) : name(std::move(name)) {}
  void put(const Entry &e) {
    Entry &slot = entries[e.key];
    int version = slot.version + 1;
    slot = e;
    slot.version = version;
  }
  bool get(const std::string &key, Entry &out) const {
    auto it = entries.find(key);
    if (it == entries.end())
      return false;
    out = it->second;
    return true;
  }
  std::vector<std::string> keys() const {
    std::vector<std::string> k;
    for (const auto &[key, e] : entries)
      k.push_back(key);
    return k;
  }
  std::size_t size() const { return entries.size(); }
  void erase(const std::string &key) { entries.erase(key); }
  std::string label() const { return name; }

private:
  std::string name = "store";
  std::map<std::string, Entry> entries;
};

/// Running statistics.
class Stats {
public:
  Stats() = default;
  void add(double x) {
    ++n;
    double d = x - mean;
    mean += d / n;
    m2 += d * (x - mean);
    lo = std::min(lo, x);
    hi = std::max(hi, x);
  }
  void addAll(const std::vector<double> &xs) {
    for (double x : xs)
      add(x);
  }
  double average() const { return mean; }
  double variance() const { return n > 1 ? m2 / (n - 1) : 0.0; }
  double minimum() const { return lo; }
  double maximum() const { return hi; }
  long count() const { return n; }
  void reset() { *this = Stats(); }

private:
  long n = 0;
  double mean = 0, m2 = 0;
  double lo = 1e300, hi = -1e300;
};

/// Multiplies blocks of a matrix held in a remote array.
class BlockWorker {
public:
  BlockWorker(double *matrix, int n) : matrix(matrix), n(n) {}
  double rowSum(int row) const {
    double s = 0;
    for (int j = 0; j < n; ++j)
      s += matrix[row * n + j];
    return s;
  }
  void scaleRow(int row, double f) {
    for (int j = 0; j < n; ++j)
      matrix[row * n + j] *= f;
  }
  std::vector<double> multiply(const std::vector<double> &x, int first, int rows) const {
    std::vector<double> y(rows, 0.0);
    for (int i = 0; i < rows; ++i)
      for (int j = 0; j < n; ++j)
        y[i] += matrix[(first + i) * n + j] * x[j];
    return y;
  }
  int size() const { return n; }

private:
  double *matrix;
  int n;
};

/// One stage of a processing pipeline.
class Stage {
public:
  Stage(std::string name, double factor) : name(std::move(name)), factor(factor) {}
  virtual ~Stage() = default;
  virtual std::vector<double> apply(const std::vector<double> &in) const {
    std::vector<double> out(in.size());
    for (std::size_t i = 0; i < in.size(); ++i)
      out[i] = in[i] * factor;
    return out;
  }
  std::string describe() const { return name + " x" + std::to_string(factor); }
  void setFactor(double f) { factor = f; }

protected:
  std::string name;
  double factor;
};

/// A stage that also adds an offset.
class ShiftStage : public Stage {
public:
  ShiftStage(std::string name, double factor, double offset)
      : Stage(std::move(name), factor), offset(offset) {}
  std::vector<double> apply(const std::vector<double> &in) const override {
    std::vector<double> out = Stage::apply(in);
    for (double &x : out)
      x += offset;
    return out;
  }
  double shift() const { return offset; }

private:
  double offset;
};

/// A member of a group that sums its share of a remote array.
class Summer : public poc::ProcessGroupMember {
public:
  Summer(double *data, int n) : data(data), n(n) {}
  void run() {
    int share = n / NumberOfProcesses();
    double s = 0;
    for (int i = ID() * share; i < (ID() + 1) * share; ++i)
      s += data[i];
    partial = s;
    barrier();
  }
  double result() const { return partial; }

private:
  double *data;
  int n;
  double partial = 0;
};

/// A templated accumulator process.
template <class T> class Accumulator {
public:
  Accumulator() = default;
  void add(T x) { total += x; }
  void add(T x, int times) { total += x * times; }
  T value() const { return total; }

private:
  T total{};
};

std::vector<double> ramp(int n, double step) {
  std::vector<double> v(n);
  for (int i = 0; i < n; ++i)
    v[i] = i * step;
  return v;
}

double checksum(const std::vector<double> &v) { return std::accumulate(v.begin(), v.end(), 0.0); }

} // namespace bench

using namespace bench;

static void fillStore(Store *store, int count) {
  for (int i = 0; i < count; ++i) {
    Entry e;
    e.key = "k" + std::to_string(i);
    e.values = ramp(4, i);
    store->put(e);
  }
}

static double useStore(Store *store) {
  double total = 0;
  for (const std::string &key : store->keys()) {
    Entry e;
    if (store->get(key, e))
      total += checksum(e.values) + e.version;
  }
  store->erase("k0");
  return total + store->size();
}

static double useStats(Stats *stats) {
  stats->addAll(ramp(100, 0.5));
  stats->add(1000);
  return stats->average() + stats->variance() + stats->minimum() + stats->maximum() +
         stats->count();
}

static double useMatrix(const char *where, int n) {
  double *matrix = new (where) double[n * n];
  for (int i = 0; i < n * n; ++i)
    matrix[i] = i % 7;
  BlockWorker *worker = new (where) BlockWorker(matrix, n);
  double s = 0;
  for (int r = 0; r < n; ++r)
    s += worker->rowSum(r);
  worker->scaleRow(0, 2.0);
  std::vector<double> y = worker->multiply(ramp(n, 1.0), 0, n / 2);
  s += checksum(y) + worker->size();
  delete worker;
  delete[] matrix;
  return s;
}

static double usePipeline(const std::vector<std::string> &machines) {
  std::vector<Stage *> stages;
  stages.push_back(new (machines[0]) Stage("scale", 2.0));
  stages.push_back(new (machines[1 % machines.size()]) ShiftStage("shift", 1.0, 3.0));
  stages.push_back(new (machines[2 % machines.size()]) Stage("halve", 0.5));
  std::vector<double> data = ramp(16, 1.0);
  for (Stage *s : stages)
    data = s->apply(data);
  double total = checksum(data);
  for (Stage *s : stages) {
    total += s->describe().size();
    s->setFactor(1.0);
    delete s;
  }
  return total;
}

static double useGroup(int members) {
  const int n = 1024;
  double *data = new ("group") double[n];
  for (int i = 0; i < n; ++i)
    data[i] = 1.0;
  std::vector<Summer *> group(members);
  for (int i = 0; i < members; ++i)
    start group[i] = new ("group") Summer(data, n);
  for (int i = 0; i < members; ++i)
    group[i]->SetProcessGroup(i, members, group.data());
  for (int i = 0; i < members; ++i)
    start group[i]->run();
  poc::sync();
  double total = 0;
  for (Summer *s : group) {
    total += s->result();
    delete s;
  }
  delete[] data;
  return total;
}

static double useAccumulators() {
  auto *a = new ("acc") Accumulator<double>();
  auto *b = new ("acc") Accumulator<long>();
  for (int i = 0; i < 10; ++i) {
    start a->add(i * 0.5);
    start b->add(i, 2);
  }
  poc::sync();
  double r = a->value() + b->value();
  delete a;
  delete b;
  return r;
}

int main(int argc, char **argv) {
  std::vector<std::string> machines{"m0", "m1", "m2"};
  int size = argc > 1 ? std::atoi(argv[1]) : 8;
  Store *store = new ("m0") Store("bench");
  fillStore(store, 20);
  double total = useStore(store);
  std::printf("store %s: %.1f\n", store->label().c_str(), total);
  delete store;

  Stats *stats = new ("m1") Stats();
  std::printf("stats: %.3f\n", useStats(stats));
  delete stats;

  std::printf("matrix: %.1f\n", useMatrix("m2", size));
  std::printf("pipeline: %.1f\n", usePipeline(machines));
  std::printf("group: %.1f\n", useGroup(4));
  std::printf("accumulators: %.1f\n", useAccumulators());
  return 0;
}
