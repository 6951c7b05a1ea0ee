#!/usr/bin/env python3
"""Reads persist_bench's JSON on stdin; prints each store operation's time
per call and its ratio to the baseline measured in the same run."""
import json
import sys

PAIRS = [("BM_Save/durable", "BM_RawWrite/durable"),
         ("BM_Save/volatile", "BM_RawWrite/volatile"),
         ("BM_Load", "BM_RawRead"),
         ("BM_SaveMany/all", "BM_SaveMany/each")]


def size_name(op, n):
    if op.startswith("BM_SaveMany"):
        return f"{n} x 4 KiB"
    for unit, scale in (("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= scale:
            return f"{n // scale} {unit}"
    return f"{n} B"


def main():
    runs = json.load(sys.stdin)["benchmarks"]
    times = {}
    rates = {}
    # With --benchmark_repetitions use the medians, else the single runs.
    medians = any(r.get("aggregate_name") == "median" for r in runs)
    for r in runs:
        if "error_occurred" in r:
            continue
        if medians and r.get("aggregate_name") != "median":
            continue
        if not medians and r.get("run_type", "iteration") != "iteration":
            continue
        name, size = r["run_name"].rsplit("/", 1) if "run_name" in r else r["name"].rsplit("/", 1)
        scale = {"us": 1, "ms": 1000, "ns": 0.001}[r.get("time_unit", "us")]
        times[(name, int(size))] = r["real_time"] * scale  # microseconds
        rates[(name, int(size))] = r.get("bytes_per_second", 0) / (1 << 20)
    print("| operation | size | store us/op | store MiB/s | baseline us/op | ratio store/baseline |")
    print("|---|---|---|---|---|---|")
    for op, base in PAIRS:
        for (name, size) in sorted(k for k in times if k[0] == op):
            if (base, size) not in times:
                continue
            t, b = times[(op, size)], times[(base, size)]
            print(f"| {op.removeprefix('BM_')} | {size_name(op, size)} | {t:.1f} | "
                  f"{rates[(op, size)]:.0f} | {b:.1f} | {t / b:.2f} |")


if __name__ == "__main__":
    main()
