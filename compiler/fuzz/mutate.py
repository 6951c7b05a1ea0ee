#!/usr/bin/env python3
"""Mutation fuzzer for poc++ (issue 14, part 4).

Takes the project's own poc++ programs (the lit inputs, the examples, the
end-to-end tests, apps/fft3d), mutates them at the token and line level and runs
`poc++ --translate-only` on each mutant. Every mutant must end in one of two
ways:

  * accepted (exit status 0), or
  * rejected (exit status 1) with at least one Clang-style diagnostic
    `FILE:LINE:COL: error:` and nothing that looks like a crash.

Anything else is a failure: a signal, another exit status, LLVM's crash
banner or an assertion, no located diagnostic, or no answer within the
timeout (a hang). Failing mutants are written to --save DIR so that they can
be added to the regression corpus, which every run replays first
(compiler/fuzz/corpus: inputs that once crashed poc++).

The mutants depend only on --seed, so a run with a fixed seed (the ctest
`compiler_mutation_fuzz`) tests the same programs every time.

  compiler/fuzz/mutate.py --poc build/compiler/poc++ --count 1000 --seed 7
"""

import argparse
import concurrent.futures
import os
import random
import re
import resource
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CORPUS = os.path.join(ROOT, "compiler", "fuzz", "corpus")

# The programs the mutants come from, relative to the project root.
SEED_DIRS = ["tests/compiler", "tests/compiler/Inputs", "tests/e2e", "tests/e2e/headers",
             "tests/e2e/library", "tests/e2e/multi", "examples/pagedevice",
             "examples/process-group", "examples/remote-array", "apps/fft3d"]
# Where the seeds' headers live (mutants are written elsewhere, so the
# original folder comes first).
INCLUDE_DIRS = ["tests/compiler/Inputs", "apps/fft3d/core/include", "stdlib/array/include", "stdlib/pagedevice/include"]

TOKEN = re.compile(r"""
    (?P<space>\s+)
  | (?P<comment>//[^\n]*|/\*.*?\*/)
  | (?P<string>"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*')
  | (?P<ident>[A-Za-z_]\w*)
  | (?P<number>\d[\w.']*)
  | (?P<punct>->\*|->|::|<<=|>>=|\.\.\.|[-+*/%&|^!=<>]=|&&|\|\||\+\+|--|<<|>>|.)
""", re.S | re.X)

# Fragments inserted where they do not belong: the language's own
# constructs first, then C++ punctuation that unbalances the parse.
INSERTIONS = ["start ", "start start ", "new(m) ", 'new("m") ', "new(m) T[4]", "delete ",
              "start new(m) ", "(*", "->", "[0]", "{", "}", "(", ")", ";", ",", "template <class T> ",
              "co_await ", "::", "&", "&&", "...", "= start ", "operator() "]
REPLACEMENT_IDENTS = ["start", "new", "m", "T", "poc", "future", "auto", "void", "x", "get",
                      "operator", "this", "delete", "template", "typename", "main"]


def tokens(text):
    """The text as (kind, spelling) pairs; their concatenation is the text."""
    return [(m.lastgroup, m.group()) for m in TOKEN.finditer(text)]


def code_positions(toks):
    return [i for i, (kind, _) in enumerate(toks) if kind not in ("space", "comment")]


def mutate_once(toks, rng):
    """Applies one random mutation in place; returns its name."""
    code = code_positions(toks)
    if not code:
        toks.append(("punct", rng.choice(INSERTIONS)))
        return "insert"
    i = rng.choice(code)
    kind = rng.randrange(8)
    if kind == 0:
        del toks[i]
        return "delete"
    if kind == 1:
        toks.insert(i, toks[i])
        toks.insert(i + 1, ("space", " "))
        return "duplicate"
    if kind == 2:
        j = rng.choice(code)
        toks[i], toks[j] = toks[j], toks[i]
        return "swap"
    if kind == 3:
        idents = [t for _, t in toks if _ == "ident"]
        if not idents:
            return "none"
        old = rng.choice(idents)
        new = rng.choice(REPLACEMENT_IDENTS + idents + [old + "_renamed"])
        every = rng.random() < 0.5
        for k, (kd, sp) in enumerate(toks):
            if kd == "ident" and sp == old:
                toks[k] = ("ident", new)
                if not every:
                    break
        return "rename"
    if kind == 4:
        del toks[i:]
        return "truncate"
    if kind == 5:
        toks[i] = ("ident", rng.choice(REPLACEMENT_IDENTS))
        return "replace"
    toks.insert(i, ("punct", rng.choice(INSERTIONS)))
    return "insert"


def mutate_lines(lines, rng):
    """Applies one whole-line mutation in place (gentler: statements move as
    units, so more mutants stay valid C++ and reach the translation)."""
    i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
    kind = rng.randrange(4)
    if kind == 0:
        del lines[i]
        return "delete line"
    if kind == 1:
        lines.insert(i, lines[i])
        return "duplicate line"
    if kind == 2:
        lines[i], lines[j] = lines[j], lines[i]
        return "swap lines"
    lines[i] = "start " + lines[i].lstrip()
    return "start line"


def mutant(text, rng):
    applied = []
    lines = text.splitlines(keepends=True)
    if lines and rng.random() < 0.4:
        applied.append(mutate_lines(lines, rng))
        text = "".join(lines)
    toks = tokens(text)
    applied += [mutate_once(toks, rng) for _ in range(rng.randint(0 if applied else 1, 2))]
    return "".join(sp for _, sp in toks), applied


LOCATED_ERROR = re.compile(r"^[^\s:][^:]*:\d+:\d+: (fatal )?error: ", re.M)
CRASH_SIGNS = ["PLEASE submit a bug report", "Stack dump:", "Assertion", "LLVM ERROR",
               "UNREACHABLE", "Segmentation fault", "AddressSanitizer", "runtime error:"]


# poc++'s parse leaves the bodies of function templates to the backend
# compiler (docs/compiler.md, "Compile time"), so a program that is invalid
# only in an instantiation of one of its own templates is rejected there, at
# the user's line. Such a rejection names the user's template. Likewise a
# variable initialised by a started void call is opaque to the parse
# (docs/compiler.md, section 2), so a wrong use of it is rejected by the
# backend, at the user's line. Without --strict, a rejection whose first
# error is at the user's own line passes; --strict fails it, to hunt
# translations that break valid-looking code.
USER_INSTANTIATION = re.compile(
    r"^[^\s:][^:]*\.cpp:\d+:\d+: note: in instantiation of "
    r"(function template specialization|member function) '(?!poc)", re.M)


def verdict(rc, output):
    """None if the run ended acceptably, else why not."""
    for sign in CRASH_SIGNS:
        if sign in output:
            return "crash (" + sign + ")"
    if rc < 0:
        return "killed by signal %d" % -rc
    if rc == 0:
        return None
    if rc != 1:
        return "exit status %d" % rc
    if not LOCATED_ERROR.search(output):
        return "rejected without a FILE:LINE:COL diagnostic"
    return None


def limit_memory():
    """A runaway compiler ends at 8 GiB of address space instead of taking
    the machine's memory (Clang's runaway recursion took 24 GiB in a minute)."""
    resource.setrlimit(resource.RLIMIT_AS, (8 << 30, 8 << 30))


def run_poc(poc, mode, path, origin_dir, timeout, workdir):
    """Runs poc++ in `mode` on `path`: (exit status or None on timeout, output)."""
    cmd = [poc] + mode + ["-I", origin_dir]
    for d in INCLUDE_DIRS:
        cmd += ["-I", os.path.join(ROOT, d)]
    cmd.append(path)
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           timeout=timeout, cwd=workdir, preexec_fn=limit_memory)
        return p.returncode, p.stdout.decode("utf-8", "replace")
    except subprocess.TimeoutExpired:
        return None, ""


def first_error_in(output, name):
    """True if the first error of a compiler's output is at a line of the
    file `name` (the user's own source, not the generated code)."""
    m = LOCATED_ERROR.search(output)
    return bool(m) and os.path.basename(m.group(0).split(":")[0]) == name


def run_one(job):
    poc, name, text, origin_dir, timeout, workdir, compile_accepted, strict = job
    path = os.path.join(workdir, name)
    with open(path, "w", encoding="utf-8", errors="surrogateescape") as f:
        f.write(text)
    rc, output = run_poc(poc, ["--translate-only", "-o", path + ".out.cpp"], path, origin_dir,
                         timeout, workdir)
    if rc is None:
        return name, "hang", "no answer within %d s (hang)" % timeout, output
    why = verdict(rc, output)
    if rc == 0 and compile_accepted and not why:
        # An accepted program whose translation does not compile is
        # poc++'s fault: the analysis parse already checked the user's code.
        rc, output = run_poc(poc, ["-fsyntax-only"], path, origin_dir, timeout, workdir)
        if rc is None:
            return name, "hang", "no answer within %d s (hang)" % timeout, output
        why = verdict(rc, output)
        if rc and not why and not USER_INSTANTIATION.search(output) and \
                (strict or not first_error_in(output, name)):
            why = "its translation does not compile"
    return name, "accepted" if rc == 0 else "rejected", why, output


def seed_files():
    files = []
    for d in SEED_DIRS:
        full = os.path.join(ROOT, d)
        if not os.path.isdir(full):
            continue
        for f in sorted(os.listdir(full)):
            if f.endswith((".cpp", ".hpp", ".h")):
                files.append(os.path.join(full, f))
    return files


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--poc", required=True, help="the poc++ executable")
    ap.add_argument("--count", type=int, default=1000, help="mutants to run")
    ap.add_argument("--seed", type=int, default=None, help="random seed (default: random)")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--timeout", type=int, default=30, help="seconds per program")
    ap.add_argument("--save", help="write failing mutants to this folder")
    ap.add_argument("--compile-accepted", action="store_true",
                    help="also compile each accepted program's translation (-fsyntax-only)")
    ap.add_argument("--strict", action="store_true",
                    help="with --compile-accepted: any error in the translation fails, even one "
                         "at the user's own line")
    args = ap.parse_args()
    args.poc = os.path.abspath(args.poc)
    seed = args.seed if args.seed is not None else random.randrange(1 << 30)
    rng = random.Random(seed)

    seeds = seed_files()
    texts = {}
    for s in seeds:
        with open(s, encoding="utf-8", errors="surrogateescape") as f:
            texts[s] = f.read()
    corpus = sorted(os.path.join(CORPUS, f) for f in os.listdir(CORPUS)) if os.path.isdir(CORPUS) else []

    with tempfile.TemporaryDirectory(prefix="poc-mutate-") as work:
        jobs = []
        for c in corpus:
            with open(c, encoding="utf-8", errors="surrogateescape") as f:
                jobs.append((args.poc, "corpus-" + os.path.basename(c), f.read(),
                             os.path.dirname(c), args.timeout, work, args.compile_accepted, args.strict))
        origins = {}
        for n in range(args.count):
            src = rng.choice(seeds)
            text, applied = mutant(texts[src], rng)
            ext = os.path.splitext(src)[1]
            # A mutated header is compiled as a source of its own.
            name = "m%05d%s" % (n, ".cpp" if ext != ".cpp" else ext)
            origins[name] = (os.path.relpath(src, ROOT), applied)
            jobs.append((args.poc, name, text, os.path.dirname(src), args.timeout, work,
                         args.compile_accepted, args.strict))

        counts = {"accepted": 0, "rejected": 0, "hang": 0}
        failures = []
        with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
            for name, outcome, why, output in pool.map(run_one, jobs):
                counts[outcome] += 1
                if why:
                    failures.append((name, why, output))
                    if args.save:
                        os.makedirs(args.save, exist_ok=True)
                        with open(os.path.join(work, name), "rb") as src, \
                             open(os.path.join(args.save, name), "wb") as dst:
                            dst.write(src.read())

    for name, why, output in failures:
        origin = origins.get(name)
        where = " (from %s by %s)" % (origin[0], ", ".join(origin[1])) if origin else ""
        print("FAIL %s%s: %s" % (name, where, why))
        print("\n".join("    " + l for l in output.splitlines()[:12]))
    print("mutate: seed %d: %d programs (%d from the corpus): %d accepted, %d rejected with "
          "diagnostics, %d hung; %d failures" %
          (seed, len(jobs), len(corpus), counts["accepted"], counts["rejected"],
           counts["hang"], len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
