#!/usr/bin/env python3
"""--dot, --trace and --stats of the dataflow programs: the structure of each
output, for a task graph (integrate's pipeline, LCS) and a stream graph
(pingpong), bare (--np 0) or under mpirun -n NP.

Usage: views_test.py --bin DIR --data DIR --np N [--mpiexec PATH FLAG...]
"""
import argparse
import collections
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

TIMEOUT = 90


def fail(message):
    print("FAIL: " + message)
    sys.exit(1)


def run(args, command, expect_status=0):
    if args.np > 0:
        command = [args.mpiexec, "-n", str(args.np), *args.mpiexec_flags, "--timeout",
                   str(TIMEOUT)] + command
    # mpirun ends a job at TIMEOUT and then prints its ranks' stacks (up to 30 s).
    done = subprocess.run(command, capture_output=True, text=True, timeout=TIMEOUT + 60)
    if done.returncode != expect_status:
        fail(f"{' '.join(command)}: status {done.returncode}, not {expect_status}\n"
             f"{done.stdout}{done.stderr}")
    return done.stdout, done.stderr


def parse_dot(text):
    """The nodes (id -> (label, machine, worker)), edges (from, to, label,
    tooltip) and clusters of a DOT text as the library writes it."""
    nodes, edges, clusters = {}, [], []
    stack = []  # open clusters: (machine, worker)
    for line in text.splitlines():
        line = line.strip()
        m = re.fullmatch(r'subgraph "cluster_m(\d+)(?:_w(\d+))?" \{', line)
        if m:
            machine, worker = int(m.group(1)), m.group(2)
            stack.append((machine, int(worker) if worker else None))
            clusters.append(stack[-1])
            continue
        if line == "}" and stack:
            stack.pop()
            continue
        m = re.fullmatch(r'(n\d+) \[label="((?:[^"\\]|\\.)*)"\];', line)
        if m:
            if not stack:
                fail(f"node outside every cluster: {line}")
            nodes[m.group(1)] = (m.group(2), stack[0][0], stack[-1][1])
            continue
        m = re.fullmatch(r'(n\d+) -> (n\d+) \[label="((?:[^"\\]|\\.)*)", '
                         r'tooltip="((?:[^"\\]|\\.)*)"\];', line)
        if m:
            edges.append(m.groups())
    if not text.startswith("digraph ") or stack:
        fail("not a closed digraph:\n" + text)
    return nodes, edges, clusters


def parse_stats(err):
    """Rows of the --stats table: name -> (machine, instances, stolen)."""
    lines = err.splitlines()
    header = [i for i, l in enumerate(lines) if l.split()[:2] == ["node", "machine"]]
    if len(header) != 1:
        fail("no --stats table:\n" + err)
    rows = {}
    for line in lines[header[0] + 1:]:
        fields = line.split()
        if len(fields) < 8:
            break
        rows[" ".join(fields[:-7])] = tuple(int(f) for f in fields[-7:-4])
    jobs = sum(int(j) for j in re.findall(r"machine \d+: jobs (\d+)", err))
    return rows, jobs


def check(args, tmp, name, program, operands, instances, types, full_types, streams):
    """Runs a program with --dot, --trace and --stats and checks the three
    outputs; `types` are the edges' labels, `full_types` maps each to the
    demangled type its tooltip names."""
    dot, trace = os.path.join(tmp, name + ".dot"), os.path.join(tmp, name + ".json")
    out, err = run(args, [os.path.join(args.bin, program), *operands, "--dot", dot, "--trace",
                          trace, "--stats", "--workers", "2"])
    machines = max(1, args.np)

    # DOT: every node once, in a cluster of a machine the run has (and of a
    # worker, for task graphs); every edge between two of them, labelled
    # with its type as the program spells it, the demangled type in full in
    # its tooltip after the output and port (or the stream).
    nodes, edges, clusters = parse_dot(open(dot).read())
    names = {label: (m, w) for label, m, w in nodes.values()}
    if sorted(names) != sorted(instances):
        fail(f"{name}: DOT nodes {sorted(names)}, not {sorted(instances)}")
    for label, (m, w) in names.items():
        if not 0 <= m < machines or (w is None) != streams:
            fail(f"{name}: node {label} in cluster machine {m} worker {w}")
    if any(w is not None for _, w in clusters) == streams:
        fail(f"{name}: worker clusters {clusters}")
    if sorted(e[2] for e in edges) != sorted(types):
        fail(f"{name}: edge types {sorted(e[2] for e in edges)}, not {sorted(types)}")
    tooltip = r"stream \d+" if streams else r"\d+ -> \d+"
    for _, _, label, text in edges:
        m = re.fullmatch(tooltip + r": (.*)", text)
        if not m or m.group(1) != full_types.get(label):
            fail(f"{name}: tooltip '{text}' of an edge labelled {label}, not the full type")
    if any(a not in nodes or b not in nodes for a, b, _, _ in edges):
        fail(f"{name}: an edge to a node the graph does not have: {edges}")

    # Trace: valid JSON; a track per worker of each machine; slices per node
    # as many as its instances; flows in pairs, each between two machines.
    events = json.load(open(trace))["traceEvents"]
    threads = {(e["pid"], e["tid"]) for e in events if e["name"] == "thread_name"}
    if {p for p, _ in threads} != set(range(machines)) or len(threads) != 2 * machines:
        fail(f"{name}: worker tracks {sorted(threads)}")
    slices = collections.Counter(e["name"] for e in events if e["ph"] == "X")
    for e in events:
        if e["ph"] == "X" and ((e["pid"], e["tid"]) not in threads or "tag" not in e["args"]):
            fail(f"{name}: slice off the tracks or without a tag: {e}")
    rows, jobs = parse_stats(err)
    for node, count in instances.items():
        if count is not None and slices[node] != count:
            fail(f"{name}: {slices[node]} slices of {node}, not {count}")
        if rows.get(node, (0, -1))[1] != slices[node]:
            fail(f"{name}: --stats says {rows.get(node)} for {node}, the trace {slices[node]}")
        if rows[node][0] != names[node][0]:
            fail(f"{name}: --stats puts {node} on machine {rows[node][0]}, DOT on {names[node][0]}")
    if sum(slices.values()) != jobs:
        fail(f"{name}: {sum(slices.values())} slices, {jobs} jobs run")
    starts = {e["id"]: e for e in events if e["ph"] == "s"}
    ends = {e["id"]: e for e in events if e["ph"] == "f"}
    if starts.keys() != ends.keys() or any(starts[i]["pid"] == ends[i]["pid"] for i in starts):
        fail(f"{name}: flows not in pairs between machines")
    crossing = [e for e in edges if nodes[e[0]][1] != nodes[e[1]][1]]
    if crossing and not starts:
        fail(f"{name}: no flow, though {len(crossing)} edges cross machines")
    if machines == 1 and starts:
        fail(f"{name}: flows on one machine")
    stolen = [e for e in events if e["ph"] == "X" and "stolen_from" in e["args"]]
    marks = [e for e in events if e["ph"] == "i" and e["name"].startswith("stolen from")]
    if len(stolen) != len(marks):
        fail(f"{name}: {len(stolen)} stolen slices, {len(marks)} marks")
    return out


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", required=True)
    parser.add_argument("--data", required=True)
    parser.add_argument("--np", type=int, required=True)
    parser.add_argument("--mpiexec", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    if args.mpiexec:
        args.mpiexec, args.mpiexec_flags = args.mpiexec[0], args.mpiexec[1:]
    tmp = tempfile.mkdtemp()
    try:
        out = check(args, tmp, "integrate", "dataflow-integrate",
                    ["--variant", "pipeline", "--chunks", "6", "--points", "6000"],
                    {"read": 1, "integrate": 6, "write": 6}, ["std::pair<long, long>", "double"],
                    {"std::pair<long, long>": "std::pair<long, long>", "double": "double"}, False)
        if not out.startswith("integral: "):
            fail("integrate: " + out)
        lcs = {f"block {i},{j}": 1 for i in range(10) for j in range(9)}
        lcs["lcs length"] = 1
        # LCS's blocks pass two vectors: the label is what the program
        # writes, a third of the demangled name.
        blocks = "std::pair<std::vector<int>, std::vector<int>>"
        demangled = ("std::pair<std::vector<int, std::allocator<int> >, std::vector<int, "
                     "std::allocator<int> > >")
        out = check(args, tmp, "lcs", "dataflow-lcs",
                    ["--block", "300", "--steal", "on", args.data + "/a.txt", args.data + "/b.txt"],
                    lcs, [blocks] * (9 * 9 + 10 * 8 + 1), {blocks: demangled}, False)
        if out != "lcs length: 1777\n":
            fail("lcs: " + out)
        out = check(args, tmp, "pingpong", "dataflow-pingpong", ["--threshold", "20"],
                    {"A": None, "B": None}, ["int", "int"], {"int": "int"}, True)
        if not out.startswith("pingpong: B reached 20"):
            fail("pingpong: " + out)
        # A picture needs Graphviz: drawn if dot is there, else a clear error.
        svg = os.path.join(tmp, "lcs.svg")
        status = 0 if shutil.which("dot") else 1
        out, err = run(args, [os.path.join(args.bin, "dataflow-lcs"), "--dot", svg,
                              args.data + "/a.txt", args.data + "/b.txt"], status)
        if status == 0 and "<svg" not in open(svg).read():
            fail("no SVG drawn")
        if status == 1 and "needs Graphviz's 'dot', which is not installed" not in err:
            fail("no clear error without dot: " + err)
    finally:
        shutil.rmtree(tmp)
    print("views: all passed")


if __name__ == "__main__":
    main()
