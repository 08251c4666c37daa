#!/usr/bin/env python3
"""The minimal example's runs in Scripts/service (Examples/ResilientServer, issue 55).

    resilient.py record    --kind calm|flood --round R [--size M:Q] --connections C --wrk FILE
                           --stats-before FILE --stats-after FILE --out runs.jsonl
    resilient.py summarize --runs runs.jsonl [--size M:Q] --shutdown-status S --shutdown-stopped P
                           --shutdown-ms MS --out FILE [--readme README.md] [--env KEY=VALUE ...]

`calm` is wrk -c8 at N = 32, the load the server is sized for (8 requests fanning out at once);
`flood` is wrk -c256 at nice 19, clients asking again the moment they are answered or refused,
yielding the cores as clients on other machines would. Per round: the goodput (200s a second,
as the server counted them), the server-side p50 and p99 of the requests it admitted (from
their arrival, `/stats`' window), the 504 and 503 shares, `late` (200s answered after their
deadline) and the p99 of how late each 504 was answered. The summary takes medians over the
rounds, of each figure and of the per-round flood/calm ratios, against the targets:

    goodput flood/calm >= 0.95, server p99 flood/calm <= 1.5, late = 0, 504 lateness p99 <= 1 ms,
    SIGTERM under the flood: exit 0 and `stopped: pending 0`.

Runs may be recorded for several sizes of the server's limit (`--limit M --queue Q`); the
targets are judged on the `--size` given (8:2 by default), and a second table compares every
size recorded, each on its own flood/calm ratios.

`summarize` writes FILE (Markdown) and replaces the marked section of the README if given. It
exits 1 on a response other than 200, 503 or 504, on socket errors, or a failed shutdown; the
timing targets are reported, not asserted (the machine decides them as much as the server).
"""

import argparse
import json
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from report import read_json, replace_section, response_problems, wrk_result  # noqa: E402

BEGIN = "<!-- resilient-results:begin -->"
END = "<!-- resilient-results:end -->"
FIELDS = ("started", "answered", "cancelled", "pending", "completed", "timedOut", "shed", "late",
          "p50Ms", "p99Ms", "timeoutLatenessP99Ms", "window")


def record(args):
    wrk = wrk_result(args.wrk)
    before, after = read_json(args.stats_before), read_json(args.stats_after)
    missing = [f for f in FIELDS if f not in after]
    delta = {k: after[k] - before[k] for k in ("completed", "timedOut", "shed", "late", "started")}
    served = delta["completed"] + delta["timedOut"] + delta["shed"]
    seconds = wrk["duration_us"] / 1e6
    problems = [f"/stats lacks {missing}"] if missing else []
    # A flood's client waiting past wrk's 2 s timeout (a busy machine, a debug build) is counted,
    # as Load/tail.py counts it under overload; socket errors, and timeouts in calm, are failures.
    problems += response_problems(wrk, served, delta["timedOut"] + delta["shed"], args.connections,
                                  timeouts_allowed=args.kind != "calm")
    admitted = delta["completed"] + delta["timedOut"]
    entry = {
        "kind": args.kind, "round": args.round, "size": args.size, "connections": args.connections, "seconds": seconds,
        "goodput": delta["completed"] / seconds if seconds else 0,
        "requests_per_second": served / seconds if seconds else 0,
        "timeout_share": delta["timedOut"] / admitted if admitted else 0,
        "shed_share": delta["shed"] / served if served else 0,
        "late": delta["late"],
        "wrk_timeouts": wrk["errors"]["timeout"],
        "calls_per_request": delta["started"] / admitted if admitted else 0,
        "p50_ms": after["p50Ms"], "p99_ms": after["p99Ms"], "window": after["window"],
        "lateness_p99_ms": after["timeoutLatenessP99Ms"],
        "problems": problems,
    }
    with open(args.out, "a") as file:
        file.write(json.dumps(entry) + "\n")
    lateness = "-" if entry["lateness_p99_ms"] is None else f"{entry['lateness_p99_ms']:.2f} ms"
    print(f"{args.kind:5} round {args.round} size {args.size}: {entry['goodput']:7.0f} 200s/s  504 {entry['timeout_share']:6.2%}  "
          f"shed {entry['shed_share']:6.1%}  server p50 {fmt(entry['p50_ms'])} p99 {fmt(entry['p99_ms'])} ms  "
          f"late {entry['late']}  504 lateness p99 {lateness}  wrk timeouts {entry['wrk_timeouts']}")
    for problem in problems:
        print(f"  PROBLEM: {problem}")


def fmt(value):
    return "-" if value is None else f"{value:.2f}"


def median(values):
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None


def of_size(runs, size):
    """The runs of one limit size, by kind and round, and the rounds that have both kinds."""
    by = {kind: {r["round"]: r for r in runs if r["kind"] == kind and r.get("size", "8:2") == size}
          for kind in ("calm", "flood")}
    return by, sorted(set(by["calm"]) & set(by["flood"]))


def flood_over_calm(by, rounds, key):
    """The median over rounds of the flood's figure over the same round's calm one."""
    return median([by["flood"][r][key] / by["calm"][r][key]
                   for r in rounds if by["calm"][r][key] and by["flood"][r][key] is not None])


def size_table(runs):
    """One row per limit size recorded: the flood's figures and its ratios to calm."""
    sizes = list(dict.fromkeys(r.get("size", "8:2") for r in runs))
    rows = ["| limit (maximum:queue) | calm 200s/s | flood 200s/s | goodput flood/calm | calm p99 ms | flood p99 ms "
            "| p99 flood/calm | flood 504 | flood 504 lateness p99 ms |",
            "|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for size in sizes:
        by, rounds = of_size(runs, size)
        calm, flood = list(by["calm"].values()), list(by["flood"].values())
        rows.append(
            f"| {size} | {median([r['goodput'] for r in calm]):.0f} | {median([r['goodput'] for r in flood]):.0f} "
            f"| {fmt(flood_over_calm(by, rounds, 'goodput'))} | {fmt(median([r['p99_ms'] for r in calm]))} "
            f"| {fmt(median([r['p99_ms'] for r in flood]))} | {fmt(flood_over_calm(by, rounds, 'p99_ms'))}x "
            f"| {median([r['timeout_share'] for r in flood]):.2%} | {fmt(median([r['lateness_p99_ms'] for r in flood]))} |")
    return sizes, rows


def summarize(args):
    every = [json.loads(line) for line in open(args.runs) if line.strip()]
    runs = [r for r in every if r.get("size", "8:2") == args.size]
    by, rounds = of_size(every, args.size)
    goodput_ratio = flood_over_calm(by, rounds, "goodput")
    p99_ratio = flood_over_calm(by, rounds, "p99_ms")
    late = sum(r["late"] for r in runs)
    lateness = median([r["lateness_p99_ms"] for r in by["flood"].values()])
    lateness_calm = median([r["lateness_p99_ms"] for r in by["calm"].values()])
    shutdown_ok = args.shutdown_status == 0 and args.shutdown_stopped == "0"
    env = dict(item.split("=", 1) for item in args.env)

    def met(ok):
        return "met" if ok else "**not met**"

    rows = []
    for kind, label in (("calm", "calm: wrk -c8"), ("flood", "flood: wrk -c256 at nice 19")):
        runs_of = list(by[kind].values())
        rows.append(
            f"| {label} | {median([r['goodput'] for r in runs_of]):.0f} | "
            f"{median([r['timeout_share'] for r in runs_of]):.2%} | {median([r['shed_share'] for r in runs_of]):.1%} | "
            f"{fmt(median([r['p50_ms'] for r in runs_of]))} | {fmt(median([r['p99_ms'] for r in runs_of]))} | "
            f"{sum(r['late'] for r in runs_of)} | {fmt(median([r['lateness_p99_ms'] for r in runs_of]))} |")
    lines = [
        f"Scripts/service ({env.get('mode', '?')} mode, {env.get('build', '?')} build), commit "
        f"{env.get('commit', '?')}, {env.get('date', '?')}, {env.get('machine', '?')}: N = 32, "
        f"medians of {len(rounds)} round(s) of {env.get('duration', '?')} s, calm then flood each round.",
        "",
        "| load | 200s/s | 504 | 503 | server p50 ms | server p99 ms | late | 504 lateness p99 ms |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
        *rows,
        "",
        "| target | measured | |",
        "|---|---:|---|",
        f"| goodput, flood / calm ≥ 0.95 | {fmt(goodput_ratio)} | {met(goodput_ratio is not None and goodput_ratio >= 0.95)} |",
        f"| server-side p99 of admitted requests, flood / calm ≤ 1.5 | {fmt(p99_ratio)}x | "
        f"{met(p99_ratio is not None and p99_ratio <= 1.5)} |",
        f"| `late` (200s after their deadline) = 0 | {late} | {met(late == 0)} |",
        f"| p99 of how late a 504 is answered ≤ 1 ms (flood; calm {fmt(lateness_calm)}) | {fmt(lateness)} ms | "
        f"{met(lateness is None or lateness <= 1)} |",
        f"| SIGTERM under the flood: exit 0, `stopped: pending 0` | exit {args.shutdown_status}, pending "
        f"{args.shutdown_stopped}, {args.shutdown_ms} ms | {met(shutdown_ok)} |",
    ]
    sizes, table = size_table(every)
    if len(sizes) > 1:
        lines += ["", f"The limit's size, each size's own server loaded in turn within each round (the figures above: "
                  f"{args.size}):", "", *table]
    section = "\n".join(lines) + "\n"
    with open(args.out, "w") as file:
        file.write(section)
    print(section)
    if args.readme:
        replace_section(args.readme, section, BEGIN, END)
    problems = [p for r in every for p in r["problems"]]
    if not shutdown_ok:
        problems.append(f"shutdown: exit {args.shutdown_status}, stopped: pending {args.shutdown_stopped}")
    for problem in problems:
        print(f"resilient: {problem}", file=sys.stderr)
    return 1 if problems else 0


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    rec = commands.add_parser("record")
    rec.add_argument("--kind", choices=["calm", "flood"], required=True)
    rec.add_argument("--round", type=int, required=True)
    rec.add_argument("--size", default="8:2")
    rec.add_argument("--connections", type=int, required=True)
    rec.add_argument("--wrk", required=True)
    rec.add_argument("--stats-before", required=True)
    rec.add_argument("--stats-after", required=True)
    rec.add_argument("--out", required=True)
    summary = commands.add_parser("summarize")
    summary.add_argument("--runs", required=True)
    summary.add_argument("--size", default="8:2")
    summary.add_argument("--shutdown-status", type=int, required=True)
    summary.add_argument("--shutdown-stopped", required=True)
    summary.add_argument("--shutdown-ms", type=int, required=True)
    summary.add_argument("--out", required=True)
    summary.add_argument("--readme")
    summary.add_argument("--env", action="append", default=[])
    args = parser.parse_args()
    if args.command == "record":
        record(args)
        return 0
    return summarize(args)


if __name__ == "__main__":
    sys.exit(main())
