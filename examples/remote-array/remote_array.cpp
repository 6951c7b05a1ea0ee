// The paper's sections 3.1 and 3.2: a remote array of doubles, indexed as
// written, shared by a group of computing processes created with `start`.
// Deviations from the paper's text are listed in docs/compiler.md.
#include <cstdio>
#include <string>

class ComputingProcess {
public:
  ComputingProcess(double *data) : data(data) {}
  /// Sums data[first .. first+n): every access reads the remote array.
  double Sum(int first, int n) const {
    double s = 0;
    for (int i = first; i < first + n; i++)
      s += data[i];
    return s;
  }

private:
  double *data;
};

int main() {
  const char *remote_machine = "machine1";
  double *data = new (remote_machine) double[1024];
  data[7] = 3.1415;
  double x = data[2];
  double y = data[7];
  std::printf("x = %.1f, data[7] = %.4f\n", x, y);

  for (int i = 0; i < 1024; i++)
    data[i] = i;

  const int N = 4;
  std::string machine[N] = {"machine0", "machine1", "machine2", "machine3"};
  ComputingProcess *process_group[N];
  for (int i = 0; i < N; i++)
    start process_group[i] = new (machine[i]) ComputingProcess(data);

  double total = 0;
  for (int i = 0; i < N; i++)
    total += process_group[i]->Sum(i * 256, 256);
  std::printf("sum of data[0..1024) computed by %d processes: %.1f\n", N, total);

  for (int i = 0; i < N; i++)
    delete process_group[i];
  delete[] data;
  return 0;
}
