#!/usr/bin/env python3
"""Cost model of apps/fft3d, the out-of-core 3D FFT of Givelberg's paper.

Predicts the time of one iteration of FFT3::ComputeTransform (paper 4.3,
docs/fft3d.md "The computation") phase by phase from per-page costs, then
passes and whole transforms, and prints three tables:

  (a) the paper's 64 TB run (16K^3 complex doubles, 8 nodes) next to the
      per-phase times the paper reports (sections 5.2 and 5.3);
  (b) runs on this machine (2 cores) next to our own measurements;
  (c) a ~1 PB transform (40960^3 complex doubles) over N machines of the
      paper's kind and of a modern kind.

    python3 bench/fft3d/cost_model.py            # all three tables
    python3 bench/fft3d/cost_model.py --table c --nodes 8,64,512

Python 3 standard library only. docs/fft3d.md "Cost model" explains the
model and where every default comes from.

The model in one paragraph: all F FFT processes run the loop in lock step.
One iteration moves V = F * L bytes (F page lines of L bytes) from the
servers to the FFT processes and back. Each phase takes as long as the
busiest resource it uses: the network links of the nodes, the CPU cores
that copy and transpose pages, the drives. The phases of one iteration
follow each other (read, ReadIntoServerCache, fftw, write, barrier), except
what the paper overlaps on purpose: the servers' disk reads of the next
line (prefetch) run during fftw, and the servers' disk writes run while
other pages are still arriving.
"""

import argparse
import math
from dataclasses import dataclass, replace
from typing import Optional

KiB, MiB, GiB, TiB = 2.0**10, 2.0**20, 2.0**30, 2.0**40
ELEM = 16  # bytes of one complex double


@dataclass
class Machine:
    """One node: its resources and per-unit costs (rates in bytes/s)."""
    name: str
    cores: int
    ram: float             # bytes
    drives: int            # independent storage devices per node
    drive_bytes: float     # capacity of one drive
    drive_read: float      # streaming read rate of one drive
    drive_write: float     # streaming write rate of one drive
    drive_access: float    # s of seek + rotation per page access (0: none)
    link: float            # one node's network link, per direction (full duplex)
    latency: float         # s: one small message (a started call, a request)
    intra: float           # a page between two ranks of one node (shared-memory MPI)
    copy: float            # one core copying pages into / out of a line buffer
    copy23: float          # ... transposing dimensions 2 and 3 (fft2)
    copy13: float          # ... transposing dimensions 1 and 3 (fft1)
    fft_ns: float          # ns per point per log2(line length), one core
    barrier: Optional[float] = None  # s; None: 2*ceil(log2 F) latencies


@dataclass
class Run:
    """One transform: array, pages, processes and where they are."""
    name: str
    size: tuple            # N1, N2, N3
    page: tuple            # n1, n2, n3
    ffts: int              # F FFT processes
    servers: int           # S page servers (one per drive out of core)
    nodes: int             # nodes holding both servers and FFT processes ...
    server_nodes: int = 0  # ... or, if > 0, the paper's split: nodes with
    fft_nodes: int = 0     # servers only and nodes with FFT processes only
    page_map: str = "circulant"     # or "slabs" (fft3d's default)
    in_core: bool = False
    prefetch: bool = True
    # A started write of a large page copies it (poc++ since 2026-11-25);
    # before, and in the paper, the client sent it from its own memory.
    start_copies: bool = True
    # Many servers per node, one drive each (the paper): a server's disk
    # write overlaps the transfers of the node's other servers. False: the
    # servers share one device and the node's cores (this machine), so a
    # page is received, then stored.
    io_overlaps_transfers: bool = True
    fft_ns: Optional[float] = None  # overrides Machine.fft_ns (lines in cache)


def page_bytes(run):
    return ELEM * math.prod(run.page)


def line_geometry(run, k):
    """Pass along dimension k (0: fft1, 1: fft2, 2: fft3): pages per line q,
    line bytes L, number of lines, iterations (lines / F, rounded up)."""
    pages = [math.ceil(N / n) for N, n in zip(run.size, run.page)]
    q = pages[k]
    lines = math.prod(pages) // q
    return q, q * page_bytes(run), lines, math.ceil(lines / run.ffts)


def fractions(run, k):
    """Where the pages of a line are, seen from its FFT process:
    (same OS process as a memory server: copied directly, in core only;
     same node: shared-memory MPI; another node: the network)."""
    if run.server_nodes:                      # the paper: servers elsewhere
        return 0.0, 0.0, 1.0
    if run.page_map == "slabs" and k != 0 and run.ffts == run.servers:
        host = 1.0      # fft2/fft3 lines lie in the slab of the process's own server
    else:
        host = 1.0 / run.servers  # circulant, or fft1 over slabs: spread evenly
    same_node = 1.0 / run.nodes if host < 1 else 1.0
    net = 1.0 - same_node
    node = same_node - host
    if not run.in_core:  # file servers: every page comes through a call
        node, host = node + host, 0.0
    return host, node, net


def iteration(m, run, k):
    """Phase times (s) of one iteration of pass k, and resource busy times."""
    q, L, lines, iters = line_geometry(run, k)
    P = page_bytes(run)
    F = run.ffts
    V = F * L                                   # bytes read (and written) per iteration
    host, node, net = fractions(run, k)
    fetched = L * (node + net)                  # bytes of a line that come through calls
    rate = (m.copy13, m.copy23, m.copy)[k]      # copy rate with this pass's transpose

    # CPU work per line, in seconds of one core. Reading: pages of a memory
    # server in the same OS process are copied (and transposed) straight into
    # the line; other pages are transposed by their server (fft1, fft2),
    # sent (a CPU copy within a node), and copied into the line.
    # Writing mirrors it; a fetched page is first assembled from the line,
    # then copied once more by `start` (if the runtime does so).
    transposing = k != 2
    client_read = L * host / rate + L * node / m.intra + fetched / m.copy
    client_write = (L * host / rate + L * node / m.intra
                    + fetched * (2 if run.start_copies else 1) / m.copy)
    server_side = fetched / rate if transposing else 0.0   # per line, each way

    # Where the CPU work runs: a node's cores do the work of its FFT
    # processes and of its servers; a phase takes at least one process's
    # own work (a process is one thread) and at least the node's work
    # divided over its cores.
    if run.server_nodes:
        def cpu(client):
            return max(client,
                       F * client / run.fft_nodes / m.cores,
                       F * server_side / run.server_nodes / m.cores)
        ffts_per_node = F / run.fft_nodes
    else:
        def cpu(client):
            return max(client, F * (client + server_side) / run.nodes / m.cores)
        ffts_per_node = F / run.nodes
    cpu_read, cpu_write = cpu(client_read), cpu(client_write)

    # Network: in one phase every page crossing nodes goes one way. With
    # separate server and FFT nodes, the busiest links are those of the
    # smaller group; with shared nodes, each node sends (and receives) 1/N
    # of the remote traffic. Links are full duplex.
    if run.server_nodes:
        link_bytes = V * net / min(run.server_nodes, run.fft_nodes)
    else:
        link_bytes = V * net / run.nodes
    t_net = link_bytes / m.link

    # Disks: the iteration's F*q pages spread evenly over all drives
    # (circulant map); each page costs an access plus its transfer.
    if run.in_core:
        t_dr = t_dw = page_read = page_write = 0.0
    else:
        devices = m.drives * (run.server_nodes or run.nodes)
        per_device = F * q / devices
        page_read = m.drive_access + P / m.drive_read
        page_write = m.drive_access + P / m.drive_write
        t_dr, t_dw = per_device * page_read, per_device * page_write

    # FFTW: one single-threaded plan per process; more processes than
    # cores on a node share them.
    fft_ns = run.fft_ns if run.fft_ns is not None else m.fft_ns
    t_fft = (L / ELEM) * math.log2(run.size[k]) * fft_ns * 1e-9
    t_fft *= max(1.0, ffts_per_node / m.cores)

    prefetching = run.prefetch and not run.in_core
    # Array::read. With prefetch the pages wait in the servers' caches: the
    # phase is the transfer (network or CPU, whichever is slower; pages are
    # pipelined). Without it the servers read the disk on demand.
    if not prefetching and not run.in_core:
        if run.io_overlaps_transfers:
            read = max(t_net, cpu_read, t_dr) + page_read
        else:
            read = t_dr + max(t_net, cpu_read)
    else:
        read = max(t_net, cpu_read) + m.latency
    # Array::ReadIntoServerCache: one started call per page of the next line;
    # in poc++ a start only sends a message (docs/runtime.md 4, 11).
    risc = q * m.latency if prefetching else 0.0
    # Array::write until the servers have taken the pages (the paper's
    # measure). A server serves its requests in order, and the prefetch
    # reads were queued first: a write waits until they are done, i.e. the
    # prefetch is hidden only as far as it fits under ReadIntoServerCache and
    # fftw. Then the pages travel; each server stores each page it receives.
    wait = max(0.0, t_dr - risc - t_fft) if prefetching else 0.0
    if run.in_core:
        write = max(t_net, cpu_write)
    elif run.io_overlaps_transfers:
        write = wait + max(t_net, cpu_write, t_dw) + page_write
    else:
        write = wait + max(t_net, cpu_write) + t_dw
    barrier = m.barrier if m.barrier is not None else \
        2 * math.ceil(math.log2(max(F, 2))) * m.latency
    total = read + risc + t_fft + write + barrier

    # What bounds the iteration in any schedule: the busiest resource over
    # the whole iteration. Shared nodes send read replies and writes on the
    # same links; separate server and FFT nodes use the two directions.
    net_busy = t_net * (1 if run.server_nodes else 2)
    fft_core_time = t_fft * min(ffts_per_node, m.cores) / m.cores
    if run.server_nodes:
        cpu_busy = max(F * (client_read + client_write) / run.fft_nodes / m.cores + fft_core_time,
                       F * 2 * server_side / run.server_nodes / m.cores)
    else:
        cpu_busy = (F * (client_read + client_write + 2 * server_side) / run.nodes / m.cores
                    + fft_core_time)
    busy = {"network": net_busy, "disk": t_dr + t_dw, "cpu+fft": cpu_busy}
    bound = max(busy, key=busy.get)

    # What the loop's time is spent on: each phase is charged to the
    # resource that sets its length (the prefetch wait to the disk).
    spent = {"network": 0.0, "disk": wait, "cpu": 0.0, "fftw": t_fft,
             "messages": risc + barrier}
    def charge(length, **times):
        spent[max(times, key=times.get)] += length
    if prefetching or run.in_core:
        charge(read, network=t_net, cpu=cpu_read)
    elif run.io_overlaps_transfers:
        charge(read, network=t_net, cpu=cpu_read, disk=t_dr)
    else:
        spent["disk"] += t_dr
        charge(read - t_dr, network=t_net, cpu=cpu_read)
    if run.in_core:
        charge(write, network=t_net, cpu=cpu_write)
    elif run.io_overlaps_transfers:
        charge(write - wait, network=t_net, cpu=cpu_write, disk=t_dw)
    else:
        spent["disk"] += t_dw
        charge(write - wait - t_dw, network=t_net, cpu=cpu_write)
    loop_bound = max(spent, key=spent.get)

    return dict(q=q, L=L, P=P, V=V, lines=lines, iters=iters, read=read, risc=risc,
                fftw=t_fft, write=write, barrier=barrier, total=total, t_net=t_net,
                t_dr=t_dr, t_dw=t_dw, cpu_read=cpu_read, cpu_write=cpu_write,
                wait=wait, busy=busy, bound=bound, bound_time=busy[bound],
                spent=spent, loop_bound=loop_bound)


def transform(m, run):
    """The three passes (fft1, fft2, fft3): per-pass iterations and times."""
    passes = [iteration(m, run, k) for k in range(3)]
    for p in passes:
        p["pass"] = p["iters"] * p["total"]
        p["pass_bound"] = p["iters"] * p["bound_time"]
    return passes


def fmt_t(s):
    """Seconds, readably."""
    if s < 1e-3:
        return f"{s * 1e6:.0f} us"
    if s < 1:
        return f"{s * 1e3:.1f} ms"
    if s < 120:
        return f"{s:.1f} s"
    if s < 2 * 3600:
        return f"{s / 60:.0f} min"
    if s < 72 * 3600:
        return f"{s / 3600:.1f} h"
    return f"{s / 86400:.1f} d"


def table(header, rows):
    widths = [max(len(str(r[i])) for r in [header] + rows) for i in range(len(header))]
    line = lambda r: "  ".join(str(c).ljust(w) for c, w in zip(r, widths)).rstrip()
    print(line(header))
    print("  ".join("-" * w for w in widths))
    for r in rows:
        print(line(r))


# ---------------------------------------------------------------- (a) paper

def paper_machine(a, link):
    """The paper's nodes (Figure 1, sections 5.2-5.3)."""
    P = 128**3 * ELEM                                  # 32 MiB page
    # How much slower an X5650 core is than one of this machine's, judged by
    # FFTW on 16384-point lines (22.4 ns per point there, 6.2 ns here);
    # used to guess its copy and transpose rates (assumption).
    slower = (a.paper_fft_s / 2**28 * 1e9) / a.fft_ns_16k
    return Machine(
        name="paper node", cores=12, ram=48e9, drives=24, drive_bytes=1e12,
        drive_access=a.paper_access,
        # streaming rates such that a 32 MiB page takes the measured times
        drive_read=P / (a.paper_page_read - a.paper_access),
        drive_write=P / (a.paper_page_write - a.paper_access),
        link=link, latency=a.paper_latency,
        intra=1e9,                                     # assumption; no page stays in a node here
        copy=a.copy / slower, copy23=a.copy23 / slower, copy13=a.copy13 / slower,
        # 16 processes each took 5.5-6.4 s for a 4 GiB line of 2^28 points
        fft_ns=a.paper_fft_s / 2**28 / 14 * 1e9)


def paper_run():
    return Run("paper 64 TB", size=(16384,) * 3, page=(128,) * 3, ffts=16, servers=96,
               nodes=8, server_nodes=4, fft_nodes=4, start_copies=False)


def print_paper(a):
    run = paper_run()
    line_rate = paper_machine(a, a.paper_link_gbit * 1e9 / 8)
    sustained = paper_machine(a, a.paper_sustained * GiB)
    it_line = iteration(line_rate, run, 2)       # the paper's timings are of fft3
    it_sus = iteration(sustained, run, 2)
    q, L, lines, iters = line_geometry(run, 2)
    print("(a) The paper's run: 16K^3 complex doubles (64 TiB) in 128^3 pages of 32 MiB,")
    print("    4 server nodes x 24 drives (96 ArrayDevice servers), 4 FFT nodes x 4 FFT processes,")
    print(f"    {q} pages (4 GiB) per line, {iters} iterations per pass, 3 passes.")
    print(f"    Inputs: page read {a.paper_page_read} s, page write {a.paper_page_write} s, "
          f"access {a.paper_access * 1e3:.2f} ms, fftw {a.paper_fft_s} s per line,")
    print(f"    message {a.paper_latency * 1e6:.0f} us; link {a.paper_link_gbit:g} Gbit/s "
          f"({line_rate.link / GiB:.2f} GiB/s) or as sustained in the paper "
          f"({a.paper_sustained:.3f} GiB/s per node).")
    print()
    per_server = it_sus["V"] / it_sus["P"] / 96
    rows = [
        ["Array::read (4 GiB)", "17.4-30.2 s", fmt_t(it_line["read"]), fmt_t(it_sus["read"])],
        ["Array::ReadIntoServerCache", "2.1-14.9 s", fmt_t(it_line["risc"]), fmt_t(it_sus["risc"])],
        ["  read + ReadIntoServerCache", "32.2-32.5 s (14 of 16)",
         fmt_t(it_line["read"] + it_line["risc"]), fmt_t(it_sus["read"] + it_sus["risc"])],
        ["fftw (input)", "5.5-6.4 s (14.0-14.9 on one node)", fmt_t(it_line["fftw"]),
         fmt_t(it_sus["fftw"])],
        [f"ReadIntoCache per server ({per_server:.1f} pages)", "5.57-5.64 s",
         fmt_t(it_line["t_dr"]), fmt_t(it_sus["t_dr"])],
        ["Array::write (4 GiB)", "21.8-25.4 s; the group's: 31 s", fmt_t(it_line["write"]),
         fmt_t(it_sus["write"])],
        ["  of which waiting for the prefetch", "-", fmt_t(it_line["wait"]), fmt_t(it_sus["wait"])],
        ["ArrayDevice::write, all pages of a server", "(0.134-0.137 s per page)",
         fmt_t(it_line["t_dw"]), fmt_t(it_sus["t_dw"])],
        ["barrier", "not reported", fmt_t(it_line["barrier"]), fmt_t(it_sus["barrier"])],
        ["iteration", "68-78 s, mean 73 s", fmt_t(it_line["total"]), fmt_t(it_sus["total"])],
        ["throughput (64 GiB per iteration)", "'close to 1 GB/s' (0.88 GiB/s at 73 s)",
         f"{it_line['V'] / GiB / it_line['total']:.2f} GiB/s",
         f"{it_sus['V'] / GiB / it_sus['total']:.2f} GiB/s"],
        ["bound (any schedule)", "network (paper 5.3)",
         f"{it_line['bound']} {fmt_t(it_line['bound_time'])}",
         f"{it_sus['bound']} {fmt_t(it_sus['bound_time'])}"],
        ["transform (3 passes x 1024 iterations)", "62 h implied (3072 x 73 s)",
         fmt_t(3 * iters * it_line["total"]), fmt_t(3 * iters * it_sus["total"])],
    ]
    table(["phase (per FFT process, one iteration)", "paper", "model @ 10 GbE",
           "model @ sustained"], rows)
    print()
    print("    With the network 2x and 4x faster (the paper expects 'under 20 seconds'):",
          ", ".join(f"{x}x: {fmt_t(iteration(replace(line_rate, link=x * line_rate.link), run, 2)['total'])}"
                    for x in (2, 4)), "per iteration")
    print()


# ----------------------------------------------------------- (b) this machine

def this_machine(a):
    """This machine (2 cores, 24 GiB, one virtual disk), measured costs."""
    return Machine(
        name="this machine", cores=2, ram=24 * GiB, drives=1, drive_bytes=1e12,
        drive_read=a.disk_read * MiB, drive_write=a.disk_write * MiB, drive_access=0.0,
        link=float("inf"), latency=a.latency, intra=a.mpi_bw,
        copy=a.copy, copy23=a.copy23, copy13=a.copy13, fft_ns=a.fft_ns,
        barrier=2 * a.latency)


def print_this_machine(a):
    m = this_machine(a)
    incore = lambda n, fft_ns: Run(f"{n}^3 in core", size=(n,) * 3, page=(32,) * 3, ffts=2,
                                   servers=2, nodes=1, page_map="slabs", in_core=True,
                                   fft_ns=fft_ns, io_overlaps_transfers=False)
    # The 8 GiB out-of-core runs of bench/RESULTS.md (2026-11-25): slab
    # map, FFT processes with their servers, file pages through calls.
    ooc = Run("1024x1024x512 out of core", size=(1024, 1024, 512), page=(64,) * 3, ffts=2,
              servers=2, nodes=1, page_map="slabs", io_overlaps_transfers=False)
    cases = [
        (incore(256, a.fft_ns_256), ["145-190 ms", "77-80 ms", "53-57 ms"], "0.32-0.36 s"),
        (incore(512, a.fft_ns_512), ["-", "-", "-"], "2.57-2.76 s"),
        (ooc, ["16.0 s", "13.4 s", "11.9 s"], "41.3-42.4 s"),
        (replace(ooc, name="1024x1024x512 out of core, prefetch off", prefetch=False),
         ["16.4 s", "16.2 s", "18.0 s"], "50.5 s"),
    ]
    print("(b) This machine: F = 2 FFT processes, S = 2 servers, mpirun -n 3, one node of 2 cores.")
    print(f"    Inputs: copy {a.copy / 1e9:.2f} GB/s (transposing: fft2 {a.copy23 / 1e9:.2f}, "
          f"fft1 {a.copy13 / 1e9:.2f}), MPI {a.mpi_bw / 1e9:.1f} GB/s, message "
          f"{a.latency * 1e6:.1f} us, disk read {a.disk_read:.0f} MiB/s, write {a.disk_write:.0f} MiB/s,")
    print(f"    FFTW {a.fft_ns} ns per point per log2 n (large lines; 256^3: {a.fft_ns_256}, "
          f"512^3: {a.fft_ns_512}).")
    print()
    rows = []
    for run, measured, measured_total in cases:
        passes = transform(m, run)
        for k, (p, meas) in enumerate(zip(passes, measured)):
            name = run.name if k == 0 else ""
            rows.append([name, f"fft{k + 1}", p["iters"], fmt_t(p["read"] * p["iters"]),
                         fmt_t(p["fftw"] * p["iters"]), fmt_t(p["write"] * p["iters"]),
                         fmt_t(p["pass"]), meas])
        rows.append(["", "total", "", "", "", "", fmt_t(sum(p["pass"] for p in passes)),
                     measured_total])
    table(["run", "pass", "iter.", "read", "fftw", "write", "model", "measured"], rows)
    print()
    print("    read/fftw/write are per FFT process, summed over the pass. Out of core, write")
    print("    includes waiting for the servers' prefetch reads (servers serve requests in order).")
    print()


# ------------------------------------------------------------- (c) petabyte

def pb_machines(a):
    paper = paper_machine(a, a.paper_link_gbit * 1e9 / 8 * a.net_efficiency)
    modern = Machine(
        name="modern", cores=a.modern_cores, ram=a.modern_ram * GiB,
        drives=a.modern_drives, drive_bytes=a.modern_drive_tb * 1e12,
        drive_read=a.modern_drive_gbs * 1e9, drive_write=a.modern_drive_gbs * 1e9,
        drive_access=100e-6, link=a.modern_link_gbit * 1e9 / 8 * a.net_efficiency,
        latency=2e-6, intra=a.mpi_bw, copy=a.copy, copy23=a.copy23, copy13=a.copy13,
        fft_ns=a.fft_ns_modern)
    return [(paper, a.paper_ffts_per_node), (modern, a.modern_ffts_per_node)]


def print_petabyte(a):
    n, pg = a.pb_size, a.pb_page
    array_bytes = ELEM * n**3
    print(f"(c) {n}^3 complex doubles = {array_bytes / 1e15:.2f} PB ({array_bytes / TiB:.0f} TiB)"
          f" in {pg}^3 pages of {ELEM * pg**3 / MiB:.2f} MiB; every node holds servers (one per"
          f" drive) and FFT processes; circulant map, prefetch on.")
    rows = []
    for m, per_node in pb_machines(a):
        for N in a.nodes:
            run = Run(f"{N}", size=(n,) * 3, page=(pg,) * 3, ffts=per_node * N,
                      servers=m.drives * N, nodes=N)
            passes = transform(m, run)
            p = passes[0]
            total = sum(x["pass"] for x in passes)
            best = sum(x["pass_bound"] for x in passes)
            storage = N * m.drives * m.drive_bytes
            memory = 2 * per_node * p["L"]   # line buffers + the servers' caches
            fits = ("2 copies" if storage >= 2 * array_bytes else
                    "1 copy" if storage >= array_bytes else "no")
            rows.append([m.name, N, per_node * N, p["iters"], fmt_t(p["total"]),
                         fmt_t(total / 3), fmt_t(total), p["loop_bound"],
                         f"{p['bound']} {fmt_t(best)}",
                         f"{storage / 1e15:.2f} PB {fits}",
                         f"{memory / GiB:.0f}/{m.ram / GiB:.0f} GiB"])
    table(["machines", "N", "F", "iter./pass", "iteration", "per pass", "transform",
           "loop bound by", "any schedule", "storage (fits)", "RAM per node"], rows)
    print()
    N = 64 if 64 in a.nodes else a.nodes[len(a.nodes) // 2]
    for m, per_node in pb_machines(a):
        it = iteration(m, Run("", size=(n,) * 3, page=(pg,) * 3, ffts=per_node * N,
                              servers=m.drives * N, nodes=N), 0)
        print(f"    {m.name}, N = {N}, one iteration of fft1: read {fmt_t(it['read'])}, "
              f"ReadIntoServerCache {fmt_t(it['risc'])}, fftw {fmt_t(it['fftw'])}, "
              f"write {fmt_t(it['write'])} (prefetch wait {fmt_t(it['wait'])}), "
              f"barrier {fmt_t(it['barrier'])}; busy: " +
              ", ".join(f"{k} {fmt_t(v)}" for k, v in it["busy"].items()))
    print()
    print("    'storage (fits)': the array fits once (the paper transforms in place) or twice")
    print("    (fft3d out of core keeps two copies of every page, docs/fft3d.md 'Restart').")
    print()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    ap.add_argument("--table", choices=["a", "b", "c", "all"], default="all")
    g = ap.add_argument_group("the paper's cluster (sections 4-5)")
    g.add_argument("--paper-page-read", type=float, default=0.2546,
                   help="s per 32 MiB page read from disk (ReadIntoCache: 704 MB in 5.6 s)")
    g.add_argument("--paper-page-write", type=float, default=0.136,
                   help="s per 32 MiB page written (ArrayDevice::write, O_DIRECT)")
    g.add_argument("--paper-access", type=float, default=4.14e-3 + 8.9e-3,
                   help="s per page access: the drive's rated latency + seek")
    g.add_argument("--paper-fft-s", type=float, default=6.0,
                   help="s of fftw per 4 GiB line (reported 5.5-6.4 s)")
    g.add_argument("--paper-link-gbit", type=float, default=10.0, help="Gbit/s per node")
    g.add_argument("--paper-sustained", type=float, default=64 / 4 / 32.3,
                   help="GiB/s per node the paper's read phase sustained: 64 GiB from 4 nodes "
                        "in 32.3 s (read + ReadIntoServerCache)")
    g.add_argument("--paper-latency", type=float, default=50e-6,
                   help="s per small message over 10 GbE (assumption)")
    g = ap.add_argument_group("this machine (measured)")
    g.add_argument("--latency", type=float, default=1.2e-6, help="s, a poc++ call between ranks")
    g.add_argument("--mpi-bw", type=float, default=3.5e9, help="B/s, MPI between ranks, 1 MiB")
    g.add_argument("--copy", type=float, default=7.0e9,
                   help="B/s, page -> line copy, one core (fft3d: 128 MB in ~18 ms)")
    g.add_argument("--copy23", type=float, default=4.06e9, help="B/s, the same transposing 2<->3")
    g.add_argument("--copy13", type=float, default=2.56e9, help="B/s, the same transposing 1<->3")
    g.add_argument("--disk-read", type=float, default=1374,
                   help="MiB/s, O_DIRECT, 4 MiB pages (1441 MB/s, 2026-11-25)")
    g.add_argument("--disk-write", type=float, default=1895,
                   help="MiB/s, O_DIRECT, 4 MiB pages (1987 MB/s, 2026-11-25)")
    g.add_argument("--fft-ns", type=float, default=0.38,
                   help="ns per point per log2 n, one core, 32-128 MiB batches of 512-1024 lines")
    g.add_argument("--fft-ns-256", type=float, default=0.224,
                   help="the same for 256^3 in core (fft3d: 15 ms per 8M points)")
    g.add_argument("--fft-ns-16k", type=float, default=6.2,
                   help="ns per point, one core, 16384-point lines (FFTW_ESTIMATE, 128 MiB)")
    g.add_argument("--fft-ns-512", type=float, default=0.249,
                   help="the same for 512-point lines in an 8 MiB buffer")
    g = ap.add_argument_group("the petabyte run")
    g.add_argument("--pb-size", type=int, default=40960, help="N of the N^3 array")
    g.add_argument("--pb-page", type=int, default=80, help="n of the n^3 pages")
    g.add_argument("--nodes", type=lambda s: [int(x) for x in s.split(",")],
                   default=[8, 16, 32, 64, 128, 256], help="machine counts")
    g.add_argument("--net-efficiency", type=float, default=1.0,
                   help="fraction of the link's line rate a run sustains (the paper's: ~0.43)")
    g.add_argument("--paper-ffts-per-node", type=int, default=4)
    g.add_argument("--modern-cores", type=int, default=64)
    g.add_argument("--modern-ram", type=float, default=512, help="GiB (assumption)")
    g.add_argument("--modern-drives", type=int, default=8)
    g.add_argument("--modern-drive-gbs", type=float, default=2.0, help="GB/s per NVMe drive")
    g.add_argument("--modern-drive-tb", type=float, default=7.68, help="TB per drive (assumption)")
    g.add_argument("--modern-link-gbit", type=float, default=100.0)
    g.add_argument("--modern-ffts-per-node", type=int, default=32, help="(assumption)")
    g.add_argument("--fft-ns-modern", type=float, default=0.46,
                   help="ns per point per log2 n, one core (this machine's, 16K-40K lines)")
    a = ap.parse_args()
    if a.table in ("a", "all"):
        print_paper(a)
    if a.table in ("b", "all"):
        print_this_machine(a)
    if a.table in ("c", "all"):
        print_petabyte(a)


if __name__ == "__main__":
    main()
