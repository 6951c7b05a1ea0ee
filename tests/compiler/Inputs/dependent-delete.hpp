// A user header of the shapes GoogleMock's headers hold: `delete` and calls
// through objects whose type a template argument decides.
#ifndef DEPENDENT_DELETE_HPP
#define DEPENDENT_DELETE_HPP

template <class Owner> void destroy(Owner owner) { delete owner; }

template <class T> struct Holder {
  T *held = nullptr;
  void reset() { delete held; }
  int peek() const { return held->value(); }
  int call(T &t) const { return (*held)(t.value()); }
};

struct Counted {
  int value() const { return 7; }
  int operator()(int x) const { return x + 1; }
};

#endif
