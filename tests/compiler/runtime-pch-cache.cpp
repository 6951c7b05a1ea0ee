// The cache of precompiled runtime headers keeps the 32 used last: a new
// flag set's header is added, and the oldest idle ones beyond 32 (with the
// prefix headers beside them) are removed. None used within the last hour
// is removed, because a compile may have just chosen it.
// RUN: rm -rf %t.cache && mkdir -p %t.cache
// RUN: bash -c 'for i in $(seq 10 49); do touch -d "2 days ago" %t.cache/poc-old$i.pch %t.cache/poc-old$i.hpp; done'
// RUN: env POC_PCH_CACHE=%t.cache %pocxx -O1 -c %S/Inputs/hello.cpp -o %t.o
// RUN: ls %t.cache | FileCheck %s --check-prefix=KEPT
// RUN: bash -c 'ls %t.cache/*.pch | wc -l' | FileCheck %s --check-prefix=COUNT
// RUN: bash -c 'ls %t.cache/*.hpp | wc -l' | FileCheck %s --check-prefix=COUNT
//
// The new header and 31 of the old stay, each beside its prefix header.
// KEPT-NOT: poc-old10.pch
// KEPT: poc-old49.pch
// COUNT: 32
//
// A compile that finds its header renews it, so that use keeps it.
// RUN: bash -c 'touch -d "2 days ago" %t.cache/*.pch'
// RUN: env POC_PCH_CACHE=%t.cache %pocxx -O1 -c %S/Inputs/hello.cpp -o %t.o
// RUN: bash -c 'find %t.cache -name "*.pch" -mmin -60 | wc -l' | FileCheck %s --check-prefix=RENEWED
// RENEWED: 1
//
// With more than 32 used within the hour, none is removed.
// RUN: bash -c 'touch %t.cache/*.pch; for i in $(seq 50 59); do touch %t.cache/poc-new$i.pch; done'
// RUN: env POC_PCH_CACHE=%t.cache %pocxx -O2 -c %S/Inputs/hello.cpp -o %t.o
// RUN: bash -c 'ls %t.cache/*.pch | wc -l' | FileCheck %s --check-prefix=BUSY
// BUSY: 43
int main() { return 0; }
