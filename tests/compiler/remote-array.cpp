// Remote arrays: `new(m) E[n]`, element reads (values) and writes (element
// references) through every pointer the value may flow to, and nothing else.
// RUN: %pocxx --translate-only %s -o - | %nochecks | FileCheck %s

class ComputingProcess {
public:
  ComputingProcess(double *data, int n) : data(data), n(n) {}
  // A pointer-to-scalar member of a process arrives over the wire.
  double Sum() const {
    double s = 0;
    for (int i = 0; i < n; i++)
      s += data[i];
    // CHECK: s += ::poc::element_value(data, i);
    return s;
  }
  void Scale(double f) { *data *= f; }
  // CHECK: void Scale(double f) { ::poc::element(data, 0) *= f; }

private:
  double *data;
  int n;
};

double *next(double *p) { return p + 1; }

int main() {
  double local[4] = {1, 2, 3, 4};
  double *plain = local;
  plain[2] = 5;
  // CHECK: plain[2] = 5;
  double *data = new ("m1") double[1024];
  // CHECK: double *data = ::poc::create_array<double>("m1", 1024);
  data[7] = 3.1415;
  // CHECK-NEXT: ::poc::element(data, 7) = 3.1415;
  double x = data[2];
  // CHECK-NEXT: double x = ::poc::element_value(data, 2);
  double *q = next(data);
  q[0] += 1;
  // CHECK: ::poc::element(q, 0) += 1;
  double *addr = &data[3];
  // CHECK-NEXT: double *addr = &data[3];
  local[1] = x + *addr;
  // CHECK-NEXT: local[1] = x + ::poc::element_value(addr, 0);
  ComputingProcess *p = new ("m2") ComputingProcess(data, 1024);
  // CHECK-NEXT: ::poc_gen::ComputingProcess_client::create_0("m2", data, 1024);
  double s = p->Sum();
  delete p;
  delete[] data;
  // CHECK: ::poc::destroy_array(data);
  return static_cast<int>(s + local[0]);
}
