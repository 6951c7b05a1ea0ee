// A program in three files: classes declared here, defined in store.cpp,
// created in both store.cpp and main.cpp.
#pragma once
#include <map>
#include <string>

class Store {
public:
  Store() = default;
  void put(const std::string &key, int value);
  int get(const std::string &key) const;
  int size() const;

private:
  std::map<std::string, int> entries;
};

class Worker {
public:
  explicit Worker(Store *store) : store(store) {}
  /// Adds `count` entries to the store; a call from one process to another.
  int fill(int count);

private:
  Store *store;
};

/// Creates a Worker process on `machine` (defined in store.cpp).
Worker *make_worker(const char *machine, Store *store);
