#!/usr/bin/env python3
"""Plots an fft3d --csv file: throughput per iteration and the phase breakdown.

usage: plot.py TIMINGS.csv OUT.png [title]
"""
import csv
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

MIB = 1024.0 * 1024.0
PHASES = ["read", "cache", "fftw", "write", "barrier"]
LABELS = {"read": "Array::read", "cache": "ReadIntoServerCache", "fftw": "fftw",
          "write": "Array::write", "barrier": "barrier"}


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    rows = list(csv.DictReader(open(sys.argv[1])))
    title = sys.argv[3] if len(sys.argv) > 3 else sys.argv[1]
    iterations = [r for r in rows if r["kind"] == "iteration"]
    processes = [r for r in rows if r["kind"] == "process"]

    fig, (top, bottom) = plt.subplots(2, 1, figsize=(10, 8))
    # Read + write throughput of each iteration (every byte is read and
    # written once), passes one after the other.
    x = list(range(len(iterations)))
    rate = [2 * float(r["bytes"]) / MIB / float(r["seconds"]) for r in iterations]
    passes = [int(r["pass"]) for r in iterations]
    for p in sorted(set(passes)):
        xs = [i for i in x if passes[i] == p]
        top.plot(xs, [rate[i] for i in xs], marker=".", label="fft%d" % p)
    top.set_xlabel("iteration")
    top.set_ylabel("read+write MB/sec")
    top.set_title(title + ": throughput per iteration")
    top.legend()
    top.grid(True, alpha=0.3)

    # Seconds per phase, per process and pass.
    labels = ["fft%s p%s" % (r["pass"], r["index"]) for r in processes]
    bottomv = [0.0] * len(processes)
    for ph in PHASES:
        v = [float(r[ph]) for r in processes]
        bottom.bar(labels, v, bottom=bottomv, label=LABELS[ph])
        bottomv = [a + b for a, b in zip(bottomv, v)]
    bottom.set_ylabel("seconds")
    bottom.set_title("phase breakdown per FFT process")
    bottom.legend(fontsize="small")
    bottom.tick_params(axis="x", rotation=60, labelsize="small")
    fig.tight_layout()
    fig.savefig(sys.argv[2], dpi=100)


if __name__ == "__main__":
    main()
