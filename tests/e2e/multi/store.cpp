#include "store.hpp"

void Store::put(const std::string &key, int value) { entries[key] = value; }

int Store::get(const std::string &key) const {
  auto it = entries.find(key);
  return it == entries.end() ? -1 : it->second;
}

int Store::size() const { return static_cast<int>(entries.size()); }

int Worker::fill(int count) {
  for (int i = 0; i < count; ++i)
    store->put("key" + std::to_string(i), i * i);
  return store->size();
}

Worker *make_worker(const char *machine, Store *store) { return new (machine) Worker(store); }
