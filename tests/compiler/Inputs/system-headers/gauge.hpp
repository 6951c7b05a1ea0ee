// A process class in a header that a test includes through -isystem.
#pragma once
class Gauge {
public:
  explicit Gauge(int scale) : scale(scale) {}
  int read() const { return scale; }

private:
  int scale;
};
