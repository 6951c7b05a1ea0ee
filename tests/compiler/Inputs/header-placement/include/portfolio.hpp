// A header that calls the Stock processes it is given.
#pragma once

#include "stock_util.hpp"

inline long total(Stock *a, Stock *b) { return a->price() + b->price(); }
