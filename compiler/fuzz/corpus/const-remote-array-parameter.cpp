// The paper's section 3.2: a group of computing processes derived from
// ProcessGroupMember, told their group with SetProcessGroup, started in
// parallel and synchronised with a barrier.
// Deviations from the paper's text are listed in docs/compiler.md.
#include <cstdio>

const int N = 4;

class ComputingProcess : public poc::ProcessGroupMember {
public:
  ComputingProcess(double *const) : data(data) {}
  /// Sums this member's quarter of data[0..1024), stores the partial sum in
  /// data[1024 + ID()], waits for the group, then member 0 adds them up.
  void Compute() {
    int n = 1024 / NumberOfProcesses();
    double s = 0;
    for (int i = ID() * n; i < (ID() + 1) * n; i++)
      s += data[i];
    data[1024 + ID()] = s;
    barrier();
    if (ID() == 0) {
      total = 0;
      for (int i = 0; i < NumberOfProcesses(); i++)
        total += data[1024 + i];
    }
  }
  double Total() const { return total; }

private:
  double *data;
  double total = 0;
};

int main() {
  double *data = new ("machine1") double[1024 + N];
  for (int i = 0; i < 1024; i++)
    data[i] = i;

  const char *machine[N] = {"machine0", "machine1", "machine2", "machine3"};
  ComputingProcess *process_group[N];
  for (int i = 0; i < N; i++)
    start process_group[i] = new (machine[i]) ComputingProcess(data);
  for (int i = 0; i < N; i++)
    process_group[i]->SetProcessGroup(i, N, process_group);
  for (int i = 0; i < N; i++)
    start process_group[i]->Compute();
  poc::sync();

  std::printf("group of %d: total %.1f\n", process_group[0]->NumberOfProcesses(),
              process_group[0]->Total());
  for (int i = 0; i < N; i++)
    delete process_group[i];
  delete[] data;
  return 0;
}
