#!/usr/bin/env python3
"""Draws a trace that POC_TRACE wrote (docs/runtime.md, "Tracing a run") as an SVG picture.

  scripts/trace_svg.py run.json picture.svg [--from US] [--to US] [--width PX]

One row per track (host, then thread or process, as the trace names them),
the slices as boxes (nested slices below the slice that holds them), the
flows from a request's send to its serving as arrows. --from and --to cut a
window of the run (microseconds from the trace's start).
"""
import argparse
import collections
import html
import json

ROW = 16          # height of one level of slices
LABEL = 190       # width of the track names
MARGIN = 10
COLORS = {"call": "#7aa6da", "start": "#b9ca4a", "future": "#b9ca4a", "new": "#e78c45",
          "delete": "#d54e53", "activate": "#c397d8", "checkpoint": "#c397d8",
          "save": "#c397d8", "sync": "#e7c547", "barrier": "#e7c547", "receive": "#cccccc",
          "serve": "#dddddd"}


def load(path, start, end):
    with open(path, encoding="utf-8") as f:
        events = json.load(f)["traceEvents"]
    hosts, tracks = {}, {}
    for e in events:
        if e["ph"] == "M" and e["name"] == "process_name":
            hosts[e["pid"]] = e["args"]["name"]
        elif e["ph"] == "M" and e["name"] == "thread_name":
            tracks[(e["pid"], e["tid"])] = e["args"]["name"]
    slices = collections.defaultdict(list)
    flows = collections.defaultdict(dict)
    for e in events:
        ts = float(e.get("ts", 0))
        if e["ph"] == "X" and ts + float(e["dur"]) >= start and ts <= end:
            slices[(e["pid"], e["tid"])].append((ts, float(e["dur"]), e["name"], e["cat"]))
        elif e["ph"] in ("s", "f") and start <= ts <= end:
            flows[e["id"]][e["ph"]] = ((e["pid"], e["tid"]), ts)
    return hosts, tracks, slices, flows


def levels(track_slices):
    """Each slice's nesting depth on its track (slices come in time order)."""
    out, open_ends = [], []
    for ts, dur, name, cat in sorted(track_slices, key=lambda s: (s[0], -s[1])):
        while open_ends and open_ends[-1] <= ts:
            open_ends.pop()
        out.append((ts, dur, name, cat, len(open_ends)))
        open_ends.append(ts + dur)
    return out


def draw(hosts, tracks, slices, flows, start, end, width):
    plot = width - LABEL - 2 * MARGIN
    scale = plot / max(end - start, 1e-9)

    def x(t):
        return LABEL + MARGIN + (min(max(t, start), end) - start) * scale

    rows, y, parts = {}, MARGIN + 20, []
    for key in sorted(k for k in tracks if slices.get(k)):
        if not rows or key[0] != max(rows)[0]:
            parts.append(f'<text x="{MARGIN}" y="{y + 12}" font-weight="bold">'
                         f'{html.escape(hosts.get(key[0], f"host {key[0]}"))}</text>')
            y += ROW + 4
        placed = levels(slices[key])
        depth = 1 + max(level for *_, level in placed)
        rows[key] = (y, placed)
        parts.append(f'<text x="{MARGIN + 10}" y="{y + 12}">{html.escape(tracks[key])}</text>')
        parts.append(f'<line x1="{LABEL}" x2="{width - MARGIN}" y1="{y + depth * ROW + 2}" '
                     f'y2="{y + depth * ROW + 2}" stroke="#eeeeee"/>')
        y += depth * ROW + 6
    for key, (top, placed) in rows.items():
        for ts, dur, name, cat, level in placed:
            left, right = x(ts), x(ts + dur)
            w = max(right - left, 0.8)
            by = top + level * ROW
            parts.append(f'<rect x="{left:.1f}" y="{by}" width="{w:.1f}" height="{ROW - 2}" '
                         f'fill="{COLORS.get(cat, "#bbbbbb")}" stroke="#555555" '
                         f'stroke-width="0.3"><title>{html.escape(name)} '
                         f'({dur:.1f} us)</title></rect>')
            if w > 7 * 4:
                text = name[: int(w / 7)]
                parts.append(f'<text x="{left + 2:.1f}" y="{by + 11}" font-size="10">'
                             f'{html.escape(text)}</text>')
    for ends in flows.values():
        if "s" in ends and "f" in ends and ends["s"][0] in rows and ends["f"][0] in rows:
            (a, ta), (b, tb) = ends["s"], ends["f"]
            parts.append(f'<line x1="{x(ta):.1f}" y1="{rows[a][0] + ROW / 2}" x2="{x(tb):.1f}" '
                         f'y2="{rows[b][0] + ROW / 2}" stroke="#333333" stroke-width="0.8" '
                         f'marker-end="url(#arrow)"/>')
    axis = (f'<text x="{LABEL + MARGIN}" y="{MARGIN + 8}">{start:.0f} us</text>'
            f'<text x="{width - MARGIN}" y="{MARGIN + 8}" text-anchor="end">{end:.0f} us</text>')
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{y + MARGIN}" '
            f'font-family="sans-serif" font-size="11">\n'
            '<defs><marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="6" '
            'markerHeight="6" orient="auto-start-reverse"><path d="M 0 0 L 10 5 L 0 10 z" '
            'fill="#333333"/></marker></defs>\n'
            f'<rect width="100%" height="100%" fill="white"/>\n{axis}\n'
            + "\n".join(parts) + "\n</svg>\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("trace")
    parser.add_argument("svg")
    parser.add_argument("--from", dest="start", type=float, default=0.0)
    parser.add_argument("--to", dest="end", type=float, default=None)
    parser.add_argument("--width", type=int, default=1200)
    args = parser.parse_args()
    hosts, tracks, slices, flows = load(args.trace, args.start, args.end or float("inf"))
    end = args.end or max(ts + dur for s in slices.values() for ts, dur, *_ in s)
    with open(args.svg, "w", encoding="utf-8") as f:
        f.write(draw(hosts, tracks, slices, flows, args.start, end, args.width))


if __name__ == "__main__":
    main()
