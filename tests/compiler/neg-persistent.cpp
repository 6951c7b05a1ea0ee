// A class used as a persistent process must have state poc++ can save and a
// default constructor (activation loads the state into a new object); each
// use says which member is the problem and what to do. A persistent
// creation cannot be started.
// RUN: not %pocxx --translate-only %s -o %t.cpp 2>&1 | FileCheck %s --implicit-check-not=error:
#include <mutex>
#include <string>

class Locked {
public:
  Locked() = default;
  int get() const { return value; }

private:
  std::mutex m;
  int value = 0;
};

class Named {
public:
  explicit Named(std::string n) : name(std::move(n)) {}
  std::string get() const { return name; }

private:
  std::string name;
};

class Fixed {
public:
  Fixed() = default;
  int get() const { return limit; }

private:
  const int limit = 3;
};

int main() {
  Locked *a = "poc://objects/locked";
  // CHECK-DAG: neg-persistent.cpp:[[#@LINE-1]]:15: error: class Locked cannot be a persistent process: member 'Locked::m' of type 'std::mutex', a library type that poc++ cannot send; send the data it holds (e.g. in a std::vector or a struct) instead; or give the class poc_write/poc_read members (docs/serialization.md)
  // CHECK-DAG: neg-persistent.cpp:15:14: note: 'm' declared here
  Named *b = new (poc::persistent_at("objects/named")) Named("x");
  // CHECK-DAG: neg-persistent.cpp:[[#@LINE-1]]:14: error: class Named cannot be a persistent process: it has no default constructor, which activation needs to make the object its saved state is loaded into
  Fixed *c = poc::persistent<Fixed>("objects/fixed");
  // CHECK-DAG: neg-persistent.cpp:[[#@LINE-1]]:14: error: class Fixed cannot be a persistent process: member 'limit' is const, so a received value cannot be stored into it; or give the class poc_write/poc_read members (docs/serialization.md)
  start Named *d = new (poc::persistent_at("objects/started")) Named("y");
  // CHECK-DAG: neg-persistent.cpp:[[#@LINE-1]]:20: error: poc++ does not support 'start' before a persistent creation (its state is saved before it returns); create it, then start calls on it
  return a->get() + static_cast<int>(b->get().size()) + c->get() + (d != nullptr);
}
