#!/usr/bin/env python3
"""Runs tests/trace/traced.cpp's program and checks what POC_TRACE makes of it.

check_trace.py MODE --hosts N -- COMMAND...
  structure: with POC_TRACE set, the run writes one Chrome/Perfetto trace
             whose structure is checked (tracks, slices, flows, order);
  off:       without POC_TRACE, the run writes no file;
  bad_path:  with POC_TRACE naming a file in a missing folder, the run says
             so once on standard error and otherwise runs as without it;
  bounded:   with POC_TRACE_EVENTS=4, each thread keeps 4 events, and the
             run says how many each thread dropped, in the trace too.
Each run gets a fresh working folder and object store.
"""
import argparse
import collections
import json
import os
import re
import subprocess
import sys
import tempfile

EXPECTED_OUTPUT = "total 6"
PROCESS_TRACK = re.compile(r"^(Counter|Relay|Tally) \d+\.\d+\.\d+$")

# Slices of the served requests, per class of the serving process:
# (name, how many).
SERVED = {
    "Counter": [("new Counter", 1), ("Counter::add", 3), ("Counter::total", 1),
                ("delete Counter", 1)],
    "Relay": [("new Relay", 2), ("Relay::meet", 2), ("Relay::pass", 1), ("barrier", 2),
              ("call Counter::add", 1), ("delete Relay", 2)],
    "Tally": [("activate Tally", 1), ("Tally::add", 1), ("checkpoint Tally", 1),
              ("save Tally", 2), ("delete Tally", 1)],
}
# Slices on the main program's track (host 0, "main"), at least how many.
MAIN = [("new Counter", 1), ("new Relay", 2), ("call Counter::add", 1),
        ("start Counter::add", 1), ("call Relay::pass", 1), ("start Relay::meet", 2),
        ("poc::sync", 1), ("activate Tally", 1), ("checkpoint", 1), ("delete", 4)]


def run(command, env, cwd):
    return subprocess.run(command, env=env, cwd=cwd, capture_output=True, text=True, timeout=90)


def check_run(result, failures):
    if result.returncode != 0:
        failures.append(f"exit status {result.returncode}")
    if EXPECTED_OUTPUT not in result.stdout:
        failures.append(f"no '{EXPECTED_OUTPUT}' in the output")


def micros(value):
    """A timestamp in nanoseconds (the trace writes microseconds with 3 decimals)."""
    return round(float(value) * 1000)


def check_order(slices, failures):
    """Per track: slices in time order, each inside the slice that is open."""
    for (pid, tid), events in slices.items():
        open_ends = []
        last = None
        for e in events:
            begin, end = micros(e["ts"]), micros(e["ts"]) + micros(e["dur"])
            if last is not None and begin < last:
                failures.append(f"track {pid}/{tid}: '{e['name']}' at {e['ts']} before the "
                                f"slice ahead of it")
            last = begin
            while open_ends and open_ends[-1] <= begin:
                open_ends.pop()
            if open_ends and end > open_ends[-1]:
                failures.append(f"track {pid}/{tid}: '{e['name']}' at {e['ts']} overlaps the "
                                f"end of the slice around it")
            open_ends.append(end)


def check_flows_bound(events, slices, failures):
    """Every flow event lies inside a slice of its track, which it binds to."""
    for e in events:
        if e["ph"] not in ("s", "t", "f"):
            continue
        at = micros(e["ts"])
        if not any(micros(x["ts"]) <= at <= micros(x["ts"]) + micros(x["dur"])
                   for x in slices[(e["pid"], e["tid"])]):
            failures.append(f"flow event {e['ph']} {e['id']} at {e['ts']} outside every slice of "
                            f"track {e['pid']}/{e['tid']}")


def check_counts(what, names, expected, failures, exact):
    for name, count in expected:
        seen = names[name]
        if (seen != count) if exact else (seen < count):
            failures.append(f"{what}: {seen} slices '{name}', expected "
                            f"{'' if exact else 'at least '}{count}")


def check_structure(path, hosts, failures):
    with open(path, encoding="utf-8") as f:
        trace = json.load(f)
    events = trace["traceEvents"]
    process_names = {e["pid"]: e["args"]["name"] for e in events
                     if e["ph"] == "M" and e["name"] == "process_name"}
    for h in range(hosts):
        if not re.match(rf"host {h} \(rank {h}, ", process_names.get(h, "")):
            failures.append(f"no process_name 'host {h} (rank {h}, ...)': {process_names}")
    tracks = {(e["pid"], e["tid"]): e["args"]["name"] for e in events
              if e["ph"] == "M" and e["name"] == "thread_name"}
    if tracks.get((0, 1)) != "main" and "main" not in [n for (p, _), n in tracks.items() if p == 0]:
        failures.append("no track 'main' on host 0")
    if not any(n.startswith("pool thread ") for n in tracks.values()):
        failures.append("no 'pool thread' track")
    classes = collections.Counter(PROCESS_TRACK.match(n).group(1) for n in tracks.values()
                                  if PROCESS_TRACK.match(n))
    if classes != {"Counter": 1, "Relay": 2, "Tally": 1}:
        failures.append(f"process tracks {dict(classes)}, expected Counter 1, Relay 2, Tally 1")

    slices = collections.defaultdict(list)
    for e in events:
        if e["ph"] == "X":
            if (e["pid"], e["tid"]) not in tracks:
                failures.append(f"slice '{e['name']}' on the unnamed track {e['pid']}/{e['tid']}")
            slices[(e["pid"], e["tid"])].append(e)
    served = collections.defaultdict(collections.Counter)
    for key, track_slices in slices.items():
        match = PROCESS_TRACK.match(tracks.get(key, ""))
        if match:
            served[match.group(1)].update(e["name"] for e in track_slices)
    for cls, expected in SERVED.items():
        check_counts(f"{cls} tracks", served[cls], expected, failures, exact=True)
    unnamed = [n for c in served.values() for n in c if "#" in n]
    if unnamed:
        failures.append(f"methods served without a name: {unnamed}")
    main = [k for k, n in tracks.items() if k[0] == 0 and n == "main"]
    main_names = collections.Counter(e["name"] for k in main for e in slices[k])
    check_counts("the main track", main_names, MAIN, failures, exact=False)
    check_order(slices, failures)

    flows = collections.defaultdict(collections.Counter)
    for e in events:
        if e["ph"] in "stf" and len(e["ph"]) == 1:
            flows[e["ph"]][e["id"]] += 1
    if not flows["s"]:
        failures.append("no flows")
    for flow_id, count in flows["s"].items():
        if count != 1 or flows["f"][flow_id] != 1:
            failures.append(f"flow {flow_id}: {count} starts, {flows['f'][flow_id]} finishes")
    for flow_id in flows["f"].keys() - flows["s"].keys():
        failures.append(f"flow {flow_id} finishes without a start")
    for flow_id in flows["t"].keys() - flows["s"].keys():
        failures.append(f"flow {flow_id} passes a step without a start")
    check_flows_bound(events, slices, failures)
    print(f"checked {len(events)} events: {len(tracks)} tracks, "
          f"{sum(len(s) for s in slices.values())} slices, {len(flows['s'])} flows")


def check_bounded(path, poc_lines, failures):
    dropped = re.compile(r"poc: POC_TRACE: host \d+ thread '[^']+' dropped \d+ events \(a thread "
                         r"keeps at most 4; POC_TRACE_EVENTS sets how many\); the trace misses them")
    if not poc_lines or not all(dropped.fullmatch(line) for line in poc_lines):
        failures.append(f"messages {poc_lines}, expected only those of dropped events")
    with open(path, encoding="utf-8") as f:
        events = json.load(f)["traceEvents"]
    # What threads recorded: events, and the names of the process tracks
    # they made (the other metadata is the writer's).
    threads = sum(1 for e in events if e["ph"] == "M" and e["name"] == "thread_name" and
                  not PROCESS_TRACK.match(e["args"]["name"]))
    recorded = sum(1 for e in events if e["ph"] != "M" or (
        e["name"] == "thread_name" and PROCESS_TRACK.match(e["args"]["name"])))
    if not threads or not 0 < recorded <= 4 * threads:
        failures.append(f"{recorded} events recorded by {threads} threads that keep 4 each")
    if not any(e["ph"] == "M" and e["name"] == "process_name" and "events dropped" in
               e["args"]["name"] for e in events):
        failures.append("no host named with its dropped events")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("mode", choices=["structure", "off", "bad_path", "bounded"])
    parser.add_argument("--hosts", type=int, required=True)
    split = sys.argv.index("--") if "--" in sys.argv else len(sys.argv)
    args = parser.parse_args(sys.argv[1:split])
    command = sys.argv[split + 1:]
    failures = []
    with tempfile.TemporaryDirectory() as folder:
        env = dict(os.environ, POC_STORE=os.path.join(folder, "store"))
        env.pop("POC_TRACE", None)
        trace = os.path.join(folder, "run.json")
        if args.mode in ("structure", "bounded"):
            env["POC_TRACE"] = trace
        if args.mode == "bounded":
            env["POC_TRACE_EVENTS"] = "4"
        elif args.mode == "bad_path":
            trace = os.path.join(folder, "missing", "run.json")
            env["POC_TRACE"] = trace
        result = run(command, env, folder)
        check_run(result, failures)
        poc_lines = [line for line in result.stderr.splitlines() if line.startswith("poc:")]
        if args.mode == "structure":
            if poc_lines:
                failures.append(f"messages: {poc_lines}")
            if os.path.exists(trace):
                check_structure(trace, args.hosts, failures)
            else:
                failures.append(f"no trace written to {trace}")
        elif args.mode == "bounded":
            check_bounded(trace, poc_lines, failures)
        elif args.mode == "off":
            written = sorted(set(os.listdir(folder)) - {"store"})
            if written or poc_lines:
                failures.append(f"untraced run wrote {written}, said {poc_lines}")
        else:
            expected = (f"poc: POC_TRACE: cannot write the trace to '{trace}': No such file or "
                        f"directory; the run is not traced")
            if poc_lines != [expected]:
                failures.append(f"messages {poc_lines}, expected [{expected!r}]")
        if failures:
            sys.stdout.write(result.stdout)
            sys.stderr.write(result.stderr)
    for f in failures:
        print("FAILED:", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
