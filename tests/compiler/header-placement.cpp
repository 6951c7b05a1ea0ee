// A class declared in one header (with no process operations of its own)
// and called in another, in a project whose source includes its headers as
// "../include/...": the class's interface is in the copy of the header that
// declares it, right after the class, and the copies are named by the
// headers' paths, without the `..` that climbs out of the source's folder.
// RUN: %pocxx --emit-generated - %S/Inputs/header-placement/src/main.cpp | %nochecks | FileCheck %s
// RUN: %pocxx --emit-generated - %S/Inputs/header-placement/src/main.cpp | grep "generated file" | FileCheck %s --check-prefix=NAMES --match-full-lines
// The program builds and runs as written.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %pocxx %S/Inputs/header-placement/src/main.cpp -o %t/app
// RUN: %t/app | FileCheck %s --check-prefix=OUTPUT
// A header given with -include has no directive to point at a copy: the
// interface stays before its first use, in the copy of portfolio.hpp, and
// the program builds and runs the same.
// RUN: %pocxx -include %S/Inputs/header-placement/include/stock_util.hpp --emit-generated - %S/Inputs/header-placement/src/main.cpp | %nochecks | FileCheck %s --check-prefix=FORCED
// RUN: %pocxx -include %S/Inputs/header-placement/include/stock_util.hpp %S/Inputs/header-placement/src/main.cpp -o %t/forced
// RUN: %t/forced | FileCheck %s --check-prefix=OUTPUT
// RUN: %pocxx --emit-generated %t/gen -c %S/Inputs/header-placement/src/main.cpp -o %t/main.o
// RUN: FileCheck %s --check-prefix=COPY < %t/gen/main.poc.cpp.headers%S/Inputs/header-placement/include/stock_util.hpp

// CHECK-LABEL: // ==== poc++ generated file: main.poc.cpp ====
// CHECK: #include "main.poc.cpp.headers/include/portfolio.hpp"
// CHECK-NEXT: #include "main.poc.cpp.headers/include/stock_util.hpp"
// CHECK-NOT: struct Stock_interface {
// CHECK: struct Stock_server : Stock_interface {
// CHECK-LABEL: // ==== poc++ generated file: main.poc.cpp.headers/include/portfolio.hpp ====
// CHECK-NEXT: #line 1 "../include/portfolio.hpp"
// CHECK: #include "main.poc.cpp.headers/include/stock_util.hpp"
// CHECK-NOT: struct Stock_interface {
// CHECK: inline long total(Stock *a, Stock *b) { return ::poc_gen::Stock_client::price_0(a) + ::poc_gen::Stock_client::price_0(b); }
// CHECK-LABEL: // ==== poc++ generated file: main.poc.cpp.headers/include/stock_util.hpp ====
// CHECK-NEXT: #line 1 "../include/stock_util.hpp"
// CHECK: class Stock {
// CHECK: };
// CHECK-NEXT: #line {{[0-9]+}} "main.poc.cpp.headers/include/stock_util.hpp"
// CHECK-NEXT: // poc++: remote interface of class 'Stock' (stock_util.hpp:5).
// CHECK: struct Stock_interface {
// CHECK: ctor_0 = ::poc::method_id("Stock::Stock(long)"),
// CHECK-NEXT: price_0 = ::poc::method_id("Stock::price() const"),
// CHECK-NEXT: set_price_0 = ::poc::method_id("Stock::set_price(long)"),
// CHECK: struct Stock_client : Stock_interface {
// CHECK: #line 14 "../include/stock_util.hpp"
// CHECK-NOT: Stock_interface {

// NAMES: // ==== poc++ generated file: main.poc.cpp ====
// NAMES-NEXT: // ==== poc++ generated file: main.poc.cpp.headers/include/portfolio.hpp ====
// NAMES-NEXT: // ==== poc++ generated file: main.poc.cpp.headers/include/stock_util.hpp ====
// NAMES-NOT: generated file

// OUTPUT: total 8

// FORCED-LABEL: // ==== poc++ generated file: main.poc.cpp.headers/include/portfolio.hpp ====
// FORCED: struct Stock_interface {
// FORCED: inline long total(Stock *a, Stock *b) {
// FORCED-NOT: generated file

// With --emit-generated DIR the copy is at the header's absolute path.
// COPY: #line 1 "{{/.*}}/Inputs/header-placement/include/stock_util.hpp"
// COPY: struct Stock_interface {
