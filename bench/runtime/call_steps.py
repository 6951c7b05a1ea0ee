#!/usr/bin/env python3
"""Step-by-step breakdown of sync calls from the time stamps that a runtime
built with -DPOC_CALL_PROBES=ON writes (runtime/src/transport/call_probes.hpp).

    call_steps.py PREFIX        reads PREFIX.<host> for every host

Each call is followed through the points in order: the stamp of the next
point is the first one at or after the stamp of the point before (the
stamps of two ranks on one node compare: the time stamp counter is the
node's). Prints the median of every step over the calls, in ns."""
import bisect
import glob
import statistics
import sys

POINTS = ["call_entered", "request_sending", "request_sent", "request_polled",
          "request_parsed", "request_routed", "method_entered", "reply_sending",
          "reply_sent", "reply_polled", "reply_parsed", "reply_routed",
          "caller_resumed", "call_returned"]
STEPS = {
    "request_sending": "caller: connection and reply slot",
    "request_sent": "caller: frame the request, MPI_Isend",
    "request_polled": "MPI to the server, until its poller receives it",
    "request_parsed": "server: copy the request out, check it (a Message)",
    "request_routed": "server: to the router, take the host mutex",
    "method_entered": "server: route, queue, leave the poller role, release the mutex",
    "reply_sending": "server: decode, run the method, encode the reply",
    "reply_sent": "server: frame the reply, MPI_Isend",
    "reply_polled": "MPI back, until the caller's poller receives it",
    "reply_parsed": "caller: copy the reply out, check it (a Message)",
    "reply_routed": "caller: to the router, host mutex, reply slot, notify",
    "caller_resumed": "caller: its wait returns",
    "call_returned": "caller: check the reply, leave the runtime",
}


def read(prefix):
    stamps = {p: [] for p in POINTS}
    ns_per_tick = []
    for path in sorted(glob.glob(prefix + ".*")):
        with open(path) as f:
            point = None
            for line in f:
                words = line.split()
                if words[0] == "ns_per_tick":
                    ns_per_tick.append(float(words[1]))
                elif words[0] == "point":
                    point = POINTS[int(words[1])]
                else:
                    stamps[point].append(int(words[0]))
    for p in stamps:
        stamps[p].sort()
    return stamps, statistics.mean(ns_per_tick)


def main():
    stamps, ns = read(sys.argv[1])
    deltas = {p: [] for p in POINTS[1:]}
    totals = []
    # The first calls warm up; the last ones may lack their server stamps.
    calls = stamps["call_entered"][len(stamps["call_entered"]) // 10:-10]
    for start in calls:
        t, path = start, []
        for p in POINTS[1:]:
            i = bisect.bisect_left(stamps[p], t)
            if i == len(stamps[p]):
                break
            path.append((p, stamps[p][i] - t))
            t = stamps[p][i]
        if len(path) != len(POINTS) - 1:
            continue
        for p, d in path:
            deltas[p].append(d * ns)
        totals.append((t - start) * ns)
    print(f"{len(totals)} calls followed")
    print(f"{'step':<72} {'median ns':>10}")
    for p in POINTS[1:]:
        print(f"{STEPS[p]:<72} {statistics.median(deltas[p]):>10.0f}")
    print(f"{'sum of the medians':<72} "
          f"{sum(statistics.median(v) for v in deltas.values()):>10.0f}")
    print(f"{'whole call inside the runtime (median)':<72} {statistics.median(totals):>10.0f}")


if __name__ == "__main__":
    main()
