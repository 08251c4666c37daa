#!/usr/bin/env python3
"""The tail-latency runs of Scripts/service (issue 40): hedging, the concurrency limit, overload.

    tail.py record    --kind tail|overload --variant V --n N --connections C --round R --wrk FILE
                      --stats-before FILE --stats-after FILE [--rss-before KB --rss-after KB]
                      [--clients competing|yielding] --out runs.jsonl
    tail.py summarize --runs runs.jsonl --out-dir DIR [--readme README.md] [--env KEY=VALUE ...]

`tail` runs (wrk -c8, as a service's own clients would load it) compare `petal` with `hedged`
and `limited`: the 504 share, latency by percentile as the client saw it, the server's own p99,
and backend calls per answered request. `overload` runs load `hedged` and `limited` with many
more connections than the limit admits: requests shed (503), the server-side p50 and p99 of
the requests answered, and the server's RSS before and after; each twice, with the clients
(wrk) competing with the server for the cores, and yielding them (wrk at nice 19, standing in
for clients on other machines).

`summarize` writes DIR/tail.json, DIR/tail.md and DIR/tail-latency.png (or .svg), replaces the
marked section of the README if given, and exits 1 if a response was other than 200, 503 or
504, if a variant without a limit answered 503, or on socket errors. No timing is asserted.
"""

import json
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from report import (  # noqa: E402
    command_parser, exit_with, fmt, nines, publish, pyplot, read_json, response_problems, wrk_result)

BEGIN = "<!-- service-tail:begin -->"
END = "<!-- service-tail:end -->"
TAIL_VARIANTS = ["petal", "hedged", "limited"]
OVERLOAD_VARIANTS = ["hedged", "limited"]
COLORS = {"petal": "#c2185b", "hedged": "#f57c00", "limited": "#7b1fa2"}


def record(args):
    wrk = wrk_result(args.wrk)
    before = read_json(args.stats_before)["variants"][args.variant]
    after = read_json(args.stats_after)["variants"][args.variant]
    delta = {k: after[k] - before[k] for k in ("started", "answered", "cancelled", "completed", "timedOut", "shed", "hedges", "late")}
    answered = delta["completed"] + delta["timedOut"]
    served = answered + delta["shed"]
    seconds = wrk["duration_us"] / 1e6
    # Under overload a client waiting past wrk's 2 s timeout is what degrading means (hedged,
    # without a limit): counted, not a failure. Socket errors are failures everywhere.
    problems = response_problems(wrk, served, delta["timedOut"] + delta["shed"], args.connections,
                                 timeouts_allowed=args.kind != "tail")
    if delta["shed"] and args.variant != "limited":
        problems.append(f"{delta['shed']} requests shed by a variant without a limit")
    entry = {
        "kind": args.kind,
        "variant": args.variant,
        "clients": args.clients,
        "n": args.n,
        "connections": args.connections,
        "round": args.round,
        "seconds": seconds,
        "requests": wrk["requests"],
        "answered_per_second": answered / seconds if seconds else 0,
        "shed_share": delta["shed"] / served if served else 0,
        "timeout_share": delta["timedOut"] / answered if answered else 0,
        "calls_per_request": delta["started"] / answered if answered else None,
        "hedges_per_request": delta["hedges"] / answered if answered else None,
        "server_p50_ms": after.get("p50_ms"),
        "server_p99_ms": after.get("p99_ms"),
        "latency_us": wrk["latency_us"]["percentiles"],
        "rss_kb": [args.rss_before, args.rss_after] if args.rss_before else None,
        "client_timeouts": wrk["errors"]["timeout"],
        # 200s sent after their request's deadline: 0 when the deadline counts from arrival.
        "late": delta["late"],
        "delta": delta,
        "problems": problems,
    }
    with open(args.out, "a") as file:
        file.write(json.dumps(entry) + "\n")
    mark = "" if not problems else "  PROBLEM: " + "; ".join(problems)
    print(
        f"  {args.kind:8} round {args.round} n={args.n:<2} c={args.connections:<3} {args.variant:8} {args.clients:9} "
        f"{entry['answered_per_second']:7.0f} answered/s  shed {entry['shed_share']:6.1%}  "
        f"504 {entry['timeout_share']:6.2%}  client p99 {wrk['latency_us']['percentiles']['99'] / 1000:6.2f} ms  "
        f"server p99 {fmt(entry['server_p99_ms'], '{:.2f}')} ms  late {delta['late']}  calls/request {fmt(entry['calls_per_request'], '{:.3f}')}{mark}",
        flush=True,
    )


def median(values):
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None


def aggregate(runs, kind, variants, clients=None):
    if clients is not None:
        runs = [r for r in runs if r.get("clients", "competing") == clients]
    table = {}
    for n in sorted({r["n"] for r in runs if r["kind"] == kind}):
        for c in sorted({r["connections"] for r in runs if r["kind"] == kind and r["n"] == n}):
            for variant in variants:
                mine = [r for r in runs if r["kind"] == kind and r["n"] == n and r["connections"] == c and r["variant"] == variant]
                if not mine:
                    continue
                row = {
                    key: median([r[key] for r in mine])
                    for key in ("answered_per_second", "shed_share", "timeout_share", "calls_per_request",
                                "hedges_per_request", "server_p50_ms", "server_p99_ms")
                }
                row["rounds"] = len(mine)
                # A count whose target is 0: every round's, not their median.
                row["late"] = sum(r.get("late", 0) for r in mine)
                row["latency_us"] = {p: median([r["latency_us"][p] for r in mine]) for p in mine[0]["latency_us"]}
                rss = [r["rss_kb"] for r in mine if r["rss_kb"]]
                row["rss_kb"] = rss[-1] if rss else None
                table.setdefault(n, {}).setdefault(c, {})[variant] = row
    return table


def tail_markdown(table):
    lines = []
    for n, by_connections in table.items():
        for c, rows in by_connections.items():
            base = rows.get("petal", {}).get("calls_per_request")
            lines += [
                f"**N = {n}**, wrk -c{c} (medians over rounds; latency as the client saw it, server p99 from `/stats`):",
                "",
                "| variant | answered/s | 504 | p50 ms | p99 ms | p99.9 ms | server p99 ms | backend calls per request | vs petal |",
                "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
            ]
            for variant, row in rows.items():
                latency = row["latency_us"]
                calls = row["calls_per_request"]
                extra = f"{calls / base - 1:+.1%}" if calls and base else "–"
                lines.append(
                    f"| {variant} | {row['answered_per_second']:.0f} | {row['timeout_share']:.2%} | "
                    f"{latency['50'] / 1000:.2f} | {latency['99'] / 1000:.2f} | {latency['99.9'] / 1000:.2f} | "
                    f"{fmt(row['server_p99_ms'], '{:.2f}')} | {fmt(calls, '{:.2f}')} | {extra} |"
                )
            lines.append("")
    return "\n".join(lines)


CLIENTS = {"competing": "competing (nice 0)", "yielding": "yielding (nice 19)"}


def overload_markdown(tables, calm):
    lines = [
        "| variant | wrk -c | clients | answered/s | shed (503) | 504 | late 200s | server p50 ms | server p99 ms | p99 vs -c8 | RSS before → after, MiB |",
        "|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---|",
    ]
    for clients, table in tables.items():
        for n, by_connections in table.items():
            for c, rows in by_connections.items():
                for variant, row in rows.items():
                    base = calm.get(n, {}).get(8, {}).get(variant, {}).get("server_p99_ms")
                    ratio = f"{row['server_p99_ms'] / base:.2f}x" if base and row["server_p99_ms"] else "–"
                    rss = row["rss_kb"]
                    rss_text = f"{rss[0] / 1024:.1f} → {rss[1] / 1024:.1f}" if rss else "–"
                    lines.append(
                        f"| {variant} | {c} | {CLIENTS[clients]} | {row['answered_per_second']:.0f} | "
                        f"{row['shed_share']:.1%} | {row['timeout_share']:.2%} | {row['late']} | {fmt(row['server_p50_ms'], '{:.2f}')} | "
                        f"{fmt(row['server_p99_ms'], '{:.2f}')} | {ratio} | {rss_text} |"
                    )
    return "\n".join(lines) + "\n"


def plot(table, out_dir):
    for stale in ("tail-latency.png", "tail-latency.svg"):
        if os.path.exists(os.path.join(out_dir, stale)):
            os.remove(os.path.join(out_dir, stale))
    plt = pyplot()
    if plt is None:
        return None
    panels = [(n, c, rows) for n, by_c in table.items() for c, rows in by_c.items()]
    figure, axes = plt.subplots(1, len(panels), figsize=(6 * len(panels), 4.5), squeeze=False)
    ticks = ["50", "90", "99", "99.9", "99.99"]
    for axis, (n, c, rows) in zip(axes[0], panels):
        for variant, row in rows.items():
            points = sorted(((p, v) for p, v in row["latency_us"].items() if float(p) >= 50), key=lambda i: float(i[0]))
            axis.plot([nines(p) for p, _ in points], [v / 1000 for _, v in points], marker=".", label=variant,
                      color=COLORS.get(variant))
        axis.axhline(20, color="#999", linestyle="--", linewidth=1)
        axis.set_xticks([nines(p) for p in ticks], [f"p{p}" for p in ticks])
        axis.set_ylim(bottom=0)
        axis.set_xlabel("percentile")
        axis.set_ylabel("latency, ms")
        axis.set_title(f"N = {n} backend calls, wrk -c{c}, 20 ms deadline")
        axis.grid(True, which="both", alpha=0.3)
        axis.legend()
    figure.tight_layout()
    figure.savefig(os.path.join(out_dir, "tail-latency.png"), dpi=110)
    plt.close(figure)
    return "tail-latency.png"


def summarize(args):
    with open(args.runs) as file:
        runs = [json.loads(line) for line in file if line.strip()]
    meta = dict(item.split("=", 1) for item in args.env)
    tail = aggregate(runs, "tail", TAIL_VARIANTS)
    overload = {clients: aggregate(runs, "overload", OVERLOAD_VARIANTS, clients) for clients in CLIENTS}
    overload = {clients: table for clients, table in overload.items() if table}
    problems = [f"{r['kind']} round {r['round']} n={r['n']} c={r['connections']} {r['variant']}: {p}" for r in runs for p in r["problems"]]
    os.makedirs(args.out_dir, exist_ok=True)
    image = plot(tail, args.out_dir)
    body = tail_markdown(tail)
    if overload:
        body += ("\n**Overload**, N = 32 (server-side latency of the requests answered, from `/stats`' window; "
                 "the clients competing with the server for the two cores, or yielding them):\n\n")
        body += overload_markdown(overload, tail)
    section = "\n".join([
        f"Run of {meta.get('date', '?')} on {meta.get('machine', '?')}, commit {meta.get('commit', '?')}, "
        f"{meta.get('duration', '?')} s per run, variants interleaved; limit {meta.get('limit', '?')}.",
        "",
        body,
    ] + ([f"![Latency by percentile, hedged and not](Results/{image})"] if image else []))
    publish(args.out_dir, "tail", {"meta": meta, "tail": tail, "overload": overload, "runs": runs, "problems": problems},
            section, args.readme, (BEGIN, END))
    print()
    print(body)
    exit_with(problems)


def main():
    parser, commands = command_parser(__doc__)
    rec = commands.add_parser("record")
    rec.add_argument("--kind", choices=["tail", "overload"], required=True)
    rec.add_argument("--variant", required=True)
    rec.add_argument("--n", type=int, required=True)
    rec.add_argument("--connections", type=int, required=True)
    rec.add_argument("--round", type=int, required=True)
    rec.add_argument("--wrk", required=True)
    rec.add_argument("--stats-before", required=True)
    rec.add_argument("--stats-after", required=True)
    rec.add_argument("--rss-before", type=int)
    rec.add_argument("--rss-after", type=int)
    rec.add_argument("--clients", choices=["competing", "yielding"], default="competing")
    rec.add_argument("--out", required=True)
    summary = commands.add_parser("summarize")
    summary.add_argument("--runs", required=True)
    summary.add_argument("--out-dir", required=True)
    summary.add_argument("--readme")
    summary.add_argument("--env", action="append", default=[])
    args = parser.parse_args()
    {"record": record, "summarize": summarize}[args.command](args)


if __name__ == "__main__":
    main()
