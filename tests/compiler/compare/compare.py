#!/usr/bin/env python3
"""Compiles each case with clang++ and with poc++ and compares the answers.

poc++ must give the same answer as the Clang it is built on for every file
and flag with no process operation (docs/compiler.md section 1): the same
exit status, the same output files and the same diagnostics. Each case is a
few files and one command line; it runs twice in the same folder (so that
paths in objects are the same), once per compiler, and the results are
compared:

* the exit status;
* standard output and standard error, with the driver's name (clang++-19
  or poc++) and temporary file names made neutral;
* every file the command wrote: objects byte for byte once poc++'s record
  (the section .poc.object, which the linker drops) is taken out of
  both with the same llvm-objcopy, every other file byte for byte.

Usage: compare.py --pocxx POC++ --clangxx CLANG++ [--filter SUBSTRING]
Prints one line per case and "compare: N cases, 0 differences" at the end.
"""
import argparse
import hashlib
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

GTEST = "/usr/src/googletest"

FIXED_TIME = 1700000000

HELLO = '#include <cstdio>\nint main() { std::puts("hello"); return 0; }\n'

# Each case: name, files (path -> text), the arguments after the compiler,
# and optionally "setup" (copies of system folders as user headers) and
# "needs" (a path that must exist, else the case is skipped).
CASES = [
    # Item 1: -v shows clang's own steps (CMake reads the include list and
    # the linker's command from them).
    dict(name="verbose-compile", files={"hello.cpp": HELLO}, args=["-v", "-c", "hello.cpp"]),
    # Item 2: no retry under another standard.
    dict(name="no-cxx20-retry",
         files={"c.cpp": "#if __cplusplus < 202002L\n#error needs C++20\n#endif\nint main() {}\n"},
         args=["-c", "c.cpp"]),
    dict(name="cxx20-feature-default-std",
         files={"c.cpp": "#include <concepts>\ntemplate <std::integral T> T f(T x) { return x; }\n"
                         "int main() { return f(0); }\n"},
         args=["-c", "c.cpp"]),
    # Item 3: files that mention `new (`, `poc` or `__POCXX__` keep their
    # standard.
    dict(name="cxx17-u8-literal",
         files={"u.cpp": '#include <new>\nconst char *s = u8"x";\n'
                         'void f(void *p) { new (p) int(0); }\nint main() { return *s == 0x78 ? 0 : 1; }\n'},
         args=["-std=c++17", "-c", "u.cpp"]),
    dict(name="placement-new-default-std",
         files={"p.cpp": '#include <new>\nstruct S { int v; };\nalignas(S) unsigned char buf[sizeof(S)];\n'
                         'int main() { S *s = new (buf) S{3}; return s->v - 3; }\n'},
         args=["p.cpp", "-o", "p"]),
    dict(name="pocxx-macro-mentioned",
         files={"m.cpp": "#ifdef __POCXX__\n#error not poc++\n#endif\nint main() {}\n"},
         args=["-c", "m.cpp"]),
    # Item 4: a function named start.
    dict(name="function-named-start",
         files={"s.cpp": "struct T { int f() { return 0; } T *operator->() { return this; } };\n"
                         "T start() { return {}; }\n"
                         "int main() { start().f(); auto r = start().f(); start()->f(); return r; }\n"},
         args=["s.cpp", "-o", "s"]),
    # Item 5: a namespace poc of the user's own.
    dict(name="own-namespace-poc",
         files={"n.cpp": "namespace poc { int f() { return 0; } }\nint main() { return poc::f(); }\n"},
         args=["n.cpp", "-o", "n"]),
    # Item 6: LTO, and outputs that are no regular file.
    dict(name="lto-compile", files={"hello.cpp": HELLO}, args=["-flto", "-c", "hello.cpp"]),
    dict(name="thin-lto-link", files={"hello.cpp": HELLO},
         args=["-flto=thin", "-fuse-ld=lld", "hello.cpp", "-o", "hello"], needs="/usr/lib/llvm-19/bin/ld.lld"),
    dict(name="output-dev-null", files={"hello.cpp": HELLO}, args=["-c", "hello.cpp", "-o", "/dev/null"]),
    # Item 7: headers to precompile, and C.
    dict(name="precompiled-header",
         files={"h.hpp": "#pragma once\n#include <vector>\ninline int g() { return 1; }\n"},
         args=["-x", "c++-header", "h.hpp", "-o", "h.hpp.pch"]),
    dict(name="c-language", files={"c.txt": "int main(void) { return 0; }\n"},
         args=["-x", "c", "-c", "c.txt", "-o", "c.o"]),
    # Item 8: assembly with the preprocessor.
    dict(name="assembly-S", files={"asm.S": "#define NAME f\n.text\n.globl NAME\nNAME:\n ret\n"},
         args=["-c", "asm.S", "-o", "a.o"]),
    # Item 9: a .c file is C++ to clang++, with a warning (an error here).
    dict(name="c-file-werror", files={"w.c": "int main() { return 0; }\n"},
         args=["-Werror", "-c", "w.c"]),
    # Item 10: diagnostics.
    dict(name="relative-path-error", files={"sub/bad.cpp": "int main() { return missing; }\n"},
         args=["-c", "sub/bad.cpp", "-o", "bad.o"]),
    dict(name="color-diagnostics", files={"bad.cpp": "int main() { return missing; }\n"},
         args=["-fcolor-diagnostics", "-c", "bad.cpp"]),
    dict(name="sarif-diagnostics", files={"bad.cpp": "int main() { return missing; }\n"},
         args=["-fdiagnostics-format=sarif", "-c", "bad.cpp"]),
    dict(name="link-error", files={"u.cpp": "int undefined_function();\nint main() { return undefined_function(); }\n"},
         args=["u.cpp", "-o", "u"]),
    dict(name="warning-kept", files={"w.cpp": "int main() { int unused; return 0; }\n"},
         args=["-Wall", "-c", "w.cpp"]),
    # Item 12: toolchain questions.
    dict(name="hash-hash-hash", files={"hello.cpp": HELLO}, args=["-###", "hello.cpp", "-o", "hello"]),
    dict(name="print-multi-directory", files={}, args=["-print-multi-directory"]),
    dict(name="print-multi-lib", files={}, args=["-print-multi-lib"]),
    dict(name="print-runtime-dir", files={}, args=["-print-runtime-dir"]),
    dict(name="print-targets", files={}, args=["-print-targets"]),
    dict(name="print-supported-cpus", files={}, args=["-print-supported-cpus"]),
    dict(name="print-diagnostic-options", files={}, args=["-print-diagnostic-options"]),
    # Beyond the issue: dependency files, -E, -S, -fsyntax-only, stdin.
    dict(name="dependency-file", files={"d.cpp": '#include "d.hpp"\nint main() { return D; }\n',
                                        "d.hpp": "#define D 0\n"},
         args=["-MD", "-MP", "-c", "d.cpp"]),
    dict(name="preprocess", files={"e.cpp": "#define X 1\nint main() { return X - 1; }\n"},
         args=["-E", "e.cpp"]),
    dict(name="assembly-output", files={"hello.cpp": HELLO}, args=["-S", "hello.cpp"]),
    dict(name="syntax-only-error", files={"bad.cpp": "int main() { return missing; }\n"},
         args=["-fsyntax-only", "bad.cpp"]),
    dict(name="two-files-linked",
         files={"a.cpp": "int b();\nint main() { return b(); }\n", "b.cpp": "int b() { return 0; }\n"},
         args=["-O2", "a.cpp", "b.cpp", "-o", "ab"]),
    dict(name="cxx17-fold-and-structured-bindings",
         files={"f.cpp": "#include <tuple>\ntemplate <class... T> int sum(T... t) { return (t + ... + 0); }\n"
                         "int main() { auto [a, b] = std::tuple{1, 2}; return sum(a, b) - 3; }\n"},
         args=["-std=c++17", "-O1", "f.cpp", "-o", "f"]),
    # Large libraries as user headers (-I, not -isystem), bare.
    dict(name="gmock-user-headers",
         files={"gm.cpp": '#include "gmock/gmock.h"\n#include "gtest/gtest.h"\n'
                          "struct I { virtual ~I() = default; virtual int f(int) = 0; };\n"
                          "struct M : I { MOCK_METHOD(int, f, (int), (override)); };\n"
                          "int use(I &i) { return i.f(1); }\n"},
         args=["-std=c++17", "-c", "gm.cpp", "-I" + GTEST + "/googlemock/include",
               "-I" + GTEST + "/googletest/include"], needs=GTEST),
    dict(name="fmt-user-headers",
         files={"f.cpp": '#include "fmt/format.h"\nstd::string g(int x) { return fmt::format("{}", x); }\n'},
         setup={"inc/fmt": "/usr/include/fmt"},
         args=["-std=c++20", "-DFMT_HEADER_ONLY", "-Iinc", "-c", "f.cpp"], needs="/usr/include/fmt"),
    dict(name="std-headers-as-user-headers",
         files={"v.cpp": "#include <vector>\n#include <string>\n#include <map>\n"
                         "int main() { std::map<std::string, std::vector<int>> m; m[\"a\"].push_back(1);"
                         " return m.size() - 1; }\n"},
         setup={"libstdcxx": "/usr/include/c++/12",
                "libstdcxx-target": "/usr/include/x86_64-linux-gnu/c++/12"},
         args=["-nostdinc++", "-Ilibstdcxx", "-Ilibstdcxx-target", "v.cpp", "-o", "v"],
         needs="/usr/include/c++/12"),
]


def normalise(text, case_dir):
    """The driver's name and temporary names made neutral."""
    text = text.replace(case_dir, "CASE")
    text = re.sub(r"(^|\n)(\S*/)?(clang\+\+(-19)?|poc\+\+)(: )", r"\1DRIVER\5", text)
    text = re.sub(re.escape(tempfile.gettempdir()) + r"/[^ \"':]*", "TMP", text)
    return text


def snapshot(case_dir, objcopy):
    """Every file under case_dir: its digest, objects without poc++'s record."""
    files = {}
    for root, _, names in os.walk(case_dir):
        for name in names:
            path = os.path.join(root, name)
            rel = os.path.relpath(path, case_dir)
            with open(path, "rb") as f:
                head = f.read(4)
            if head == b"\x7fELF" and name.endswith(".o"):
                normal = path + ".normal"
                subprocess.run([objcopy, "--remove-section=.poc.object", path, normal], check=True)
                with open(normal, "rb") as f:
                    data = f.read()
                os.remove(normal)
            else:
                with open(path, "rb") as f:
                    data = f.read()
            files[rel] = hashlib.sha256(data).hexdigest()
    return files


def run_case(case, compiler, case_dir, objcopy):
    shutil.rmtree(case_dir, ignore_errors=True)
    os.makedirs(case_dir)
    for rel, src in case.get("setup", {}).items():
        shutil.copytree(src, os.path.join(case_dir, rel), symlinks=True)
    for rel, text in case["files"].items():
        path = os.path.join(case_dir, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(text)
    # Precompiled headers record their inputs' times: the same for both runs.
    for root, _, names in os.walk(case_dir):
        for name in names:
            os.utime(os.path.join(root, name), (FIXED_TIME, FIXED_TIME), follow_symlinks=False)
    before = snapshot(case_dir, objcopy)
    env = dict(os.environ, LC_ALL="C")
    p = subprocess.run([compiler] + case["args"], cwd=case_dir, capture_output=True, text=True,
                       env=env, timeout=120)
    after = snapshot(case_dir, objcopy)
    written = {k: v for k, v in after.items() if before.get(k) != v}
    return dict(status=p.returncode, stdout=normalise(p.stdout, case_dir),
                stderr=normalise(p.stderr, case_dir), files=written)


def describe(field, a, b):
    if field == "files":
        lines = []
        for name in sorted(set(a) | set(b)):
            if a.get(name) != b.get(name):
                lines.append("    %s: clang++ %s, poc++ %s" % (
                    name, "wrote" if name in a else "did not write",
                    "wrote it differently" if name in b and name in a else
                    "wrote" if name in b else "did not write"))
        return "\n".join(lines)
    return "    clang++: %r\n    poc++:   %r" % (a, b)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--pocxx", required=True)
    ap.add_argument("--clangxx", required=True)
    ap.add_argument("--objcopy", default="llvm-objcopy")
    ap.add_argument("--filter", default="")
    args = ap.parse_args()
    work = tempfile.mkdtemp(prefix="poc-compare-")
    differences = cases = 0
    try:
        for case in CASES:
            if args.filter not in case["name"]:
                continue
            if case.get("needs") and not os.path.exists(case["needs"]):
                print("skipped %s (no %s)" % (case["name"], case["needs"]))
                continue
            cases += 1
            started = time.monotonic()
            case_dir = os.path.join(work, "case")
            clang = run_case(case, args.clangxx, case_dir, args.objcopy)
            poc = run_case(case, args.pocxx, case_dir, args.objcopy)
            diff = [f for f in ("status", "stdout", "stderr", "files") if clang[f] != poc[f]]
            if diff:
                differences += 1
                print("DIFFERENT %s: %s" % (case["name"], ", ".join(diff)))
                for f in diff:
                    print(describe(f, clang[f], poc[f]))
            else:
                print("same %s (exit %d, %d files; %.1f s)" % (
                    case["name"], clang["status"], len(clang["files"]), time.monotonic() - started))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print("compare: %d cases, %d differences" % (cases, differences))
    return 1 if differences else 0


if __name__ == "__main__":
    sys.exit(main())
