#!/usr/bin/env python3
"""Results of Scripts/service's load runs: one record per wrk run, then the summary.

    report.py record  --variant V --n N --round R --wrk FILE --stats-before FILE --stats-after FILE
                      --cpu-before TICKS --cpu-after TICKS --out runs.jsonl
    report.py pair    --round R --n N --out pairs.jsonl
                      --side VARIANT WRK STATS-BEFORE STATS-AFTER TICKS-BEFORE TICKS-AFTER  (twice)
    report.py summarize --runs runs.jsonl --final-stats FILE --rss-before KB --rss-after KB
                      [--pairs pairs.jsonl] --out-dir DIR [--readme README.md] [--env KEY=VALUE ...]

`summarize` writes DIR/results.json, DIR/results.md and a latency-by-percentile plot
(DIR/latency.png with matplotlib, else DIR/latency.svg drawn by hand), replaces the marked
section of the README if given, prints the table, and exits 1 if an invariant failed:
- every response was 200 or 504 (the server answered exactly what wrk counted, give or take the
  requests in flight when wrk stopped, and wrk's non-2xx count is within the server's 504s);
- no socket errors or wrk timeouts;
- one second after the load, no backend call of the petal variant is pending (the others are
  reported, and warned about), and Petal's diagnostics counted no abandoned promise, unobserved
  failure or repeated resolution, and no timeout is left in its timer heap.
No timing is ever asserted.
"""

import argparse
import json
import math
import os
import statistics
import sys

VARIANTS = ["petal", "async", "nio", "callbacks", "hedged", "limited", "resilient", "batch", "guide"]
FLOOR = "callbacks"
TABLE_PERCENTILES = ["50", "90", "99", "99.9"]
BEGIN = "<!-- service-results:begin -->"
PAIRS_BEGIN = "<!-- service-pairs:begin -->"
PAIRS_END = "<!-- service-pairs:end -->"
END = "<!-- service-results:end -->"
CONNECTIONS = 16


def read_json(path):
    with open(path) as file:
        return json.load(file)


def wrk_result(path):
    with open(path) as file:
        for line in file:
            if line.startswith("WRK_JSON "):
                return json.loads(line[len("WRK_JSON "):])
    raise SystemExit(f"report: no WRK_JSON line in {path}")


def record(args):
    wrk = wrk_result(args.wrk)
    before = read_json(args.stats_before)["variants"][args.variant]
    after = read_json(args.stats_after)["variants"][args.variant]
    delta = {key: after[key] - before[key] for key in ("started", "answered", "cancelled", "completed", "timedOut")}
    served = delta["completed"] + delta["timedOut"]
    seconds = wrk["duration_us"] / 1e6
    cpu_seconds = (args.cpu_after - args.cpu_before) / args.clk_tck
    problems = []
    if wrk["requests"] > served or served - wrk["requests"] > CONNECTIONS:
        problems.append(
            f"wrk counted {wrk['requests']} responses, the server answered {served} with 200 or 504: "
            "some responses were neither"
        )
    if wrk["errors"]["status"] > delta["timedOut"]:
        problems.append(f"{wrk['errors']['status']} non-2xx responses but only {delta['timedOut']} were 504")
    if wrk["latency_us"]["samples"] != wrk["requests"] - wrk["errors"]["timeout"]:
        problems.append(
            f"{wrk['latency_us']['samples']} latency samples for {wrk['requests']} responses: "
            "wrk's coordinated-omission correction was not undone (is WRK_CONNECTIONS set?)"
        )
    sockets = {k: v for k, v in wrk["errors"].items() if k != "status" and v}
    if sockets:
        problems.append(f"socket errors or timeouts: {sockets}")
    entry = {
        "variant": args.variant,
        "n": args.n,
        "round": args.round,
        "requests": wrk["requests"],
        "served": served,
        "seconds": seconds,
        "requests_per_second": wrk["requests"] / seconds if seconds else 0,
        "timeout_share": delta["timedOut"] / served if served else 0,
        "cpu_seconds": cpu_seconds,
        "cpu_us_per_request": cpu_seconds * 1e6 / served if served else None,
        "backend_calls": {k: delta[k] for k in ("started", "answered", "cancelled")},
        "latency_us": wrk["latency_us"],
        "errors": wrk["errors"],
        "problems": problems,
    }
    with open(args.out, "a") as file:
        file.write(json.dumps(entry) + "\n")
    mark = "" if not problems else "  PROBLEM: " + "; ".join(problems)
    print(
        f"  round {args.round} n={args.n:<2} {args.variant:9} {entry['requests_per_second']:9.0f} req/s  "
        f"p50 {wrk['latency_us']['percentiles']['50'] / 1000:6.2f} ms  "
        f"p99 {wrk['latency_us']['percentiles']['99'] / 1000:6.2f} ms  "
        f"504 {entry['timeout_share']:6.1%}  "
        f"cpu {entry['cpu_us_per_request'] or 0:7.1f} us/req{mark}",
        flush=True,
    )


def side_result(variant, wrk_path, before_path, after_path, cpu_before, cpu_after, clk_tck):
    """CPU per request of one side of a pair: one variant loaded in a server of its own."""
    wrk = wrk_result(wrk_path)
    before = read_json(before_path)["variants"][variant]
    after = read_json(after_path)["variants"][variant]
    served = (after["completed"] - before["completed"]) + (after["timedOut"] - before["timedOut"])
    problems = []
    if wrk["requests"] > served or served - wrk["requests"] > CONNECTIONS:
        problems.append(f"{variant}: wrk counted {wrk['requests']} responses, the server answered {served}")
    sockets = {k: v for k, v in wrk["errors"].items() if k != "status" and v}
    if sockets:
        problems.append(f"{variant}: socket errors or timeouts: {sockets}")
    cpu_seconds = (int(cpu_after) - int(cpu_before)) / clk_tck
    calls = after["started"] - before["started"]
    return {
        "variant": variant,
        "served": served,
        "cpu_us_per_request": cpu_seconds * 1e6 / served if served else None,
        # Copies and retries included: a variant that sends more calls per request pays for them.
        "backend_calls_per_request": calls / served if served else None,
        "cpu_us_per_call_sent": cpu_seconds * 1e6 / calls if calls else None,
        "problems": problems,
    }


def pair(args):
    first, second = (side_result(*side, args.clk_tck) for side in args.side)
    entry = {"round": args.round, "n": args.n, "sides": [first, second], "problems": first["problems"] + second["problems"]}
    if first["cpu_us_per_request"] is not None and second["cpu_us_per_request"] is not None:
        entry["difference_us_per_call"] = (first["cpu_us_per_request"] - second["cpu_us_per_request"]) / args.n
    if first["cpu_us_per_call_sent"] is not None and second["cpu_us_per_call_sent"] is not None:
        entry["difference_us_per_call_sent"] = first["cpu_us_per_call_sent"] - second["cpu_us_per_call_sent"]
    with open(args.out, "a") as file:
        file.write(json.dumps(entry) + "\n")
    mark = "" if not entry["problems"] else "  PROBLEM: " + "; ".join(entry["problems"])
    print(
        f"  round {args.round} n={args.n:<2} {first['variant']:9} {first['cpu_us_per_request'] or 0:7.1f} us/req "
        f"({first['backend_calls_per_request'] or 0:.2f} calls)  "
        f"{second['variant']:9} {second['cpu_us_per_request'] or 0:7.1f} us/req "
        f"({second['backend_calls_per_request'] or 0:.2f} calls)  "
        f"difference {entry.get('difference_us_per_call', 0):+.2f} us/call, "
        f"{entry.get('difference_us_per_call_sent', 0):+.2f} us/call sent{mark}",
        flush=True,
    )


def paired_table(pairs, key="difference_us_per_call"):
    """Per pair (in the order first run, the first variant named first) and N: the median and the
    range over rounds of the first variant's CPU per request minus the second's, divided by N
    (`key` "difference_us_per_call_sent": each side's CPU divided by the backend calls it sent,
    copies and retries included). Rounds alternate which server each side uses: each figure is
    the mean of two consecutive rounds, one in each placement, and the median and range are
    over those means. The two servers are not equal (one placement read up to 0.15 µs a call
    above the other in session 51's runs, whichever variant it held): a pair's mean cancels
    that, where the median of the rounds themselves swung between the two placements' figures
    from run to run. With an odd number of rounds the last one is left out (a single round:
    itself)."""
    table = {}
    for entry in pairs:
        if key not in entry:
            continue
        name = f"{entry['sides'][0]['variant']} − {entry['sides'][1]['variant']}"
        if entry["round"] % 2 == 0:
            # Even rounds list the sides the other way round (they swap servers): undo it.
            name = f"{entry['sides'][1]['variant']} − {entry['sides'][0]['variant']}"
            difference = -entry[key]
        else:
            difference = entry[key]
        table.setdefault(name, {}).setdefault(entry["n"], []).append(difference)
    def swapped_means(values):
        means = [(values[i] + values[i + 1]) / 2 for i in range(0, len(values) - 1, 2)]
        return means or values

    return {
        name: {
            n: {
                "median": statistics.median(swapped_means(values)),
                "min": min(swapped_means(values)),
                "max": max(swapped_means(values)),
                "rounds": len(values),
            }
            for n, values in sorted(by_n.items())
        }
        for name, by_n in table.items()
    }


def paired_rows(paired, calls):
    """A pair's table: a row a pair, a cell an N, the median and [lowest, highest] of its rounds."""
    lines = ["| pair | " + " | ".join(f"N = {n}" for n in calls) + " |", "|---|" + "---:|" * len(calls)]
    for name, by_n in paired.items():
        cells = []
        for n in calls:
            cell = by_n.get(n)
            cells.append("–" if cell is None else f"{cell['median']:+.2f} [{cell['min']:+.2f}, {cell['max']:+.2f}]")
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    return lines


def paired_markdown(paired, rounds, duration, per_call_sent=None, pinned=False):
    if not paired:
        return ""
    calls = sorted({n for by_n in paired.values() for n in by_n})
    # `Scripts/service --pin`: each server on a core of its own, each wrk on the other's.
    where = (
        "in two servers of their own, each on a core of its own with the other's wrk beside it"
        if pinned
        else "in two servers of their own"
    )
    lines = [
        "**Paired CPU per backend call**: each variant and the one it is compared with loaded at the same "
        f"time, {where} (wrk -t1 -c8 each, {duration} s), {rounds} round(s) per N with the "
        "two swapping servers; the difference of their CPU per request, divided by N, in µs, averaged over "
        "each two consecutive rounds (one in each server): median of those means [lowest, highest].",
        "",
    ] + paired_rows(paired, calls)
    petal, nio = paired.get("petal − callbacks", {}), paired.get("nio − callbacks", {})
    shares = [
        f"N = {n}: {petal[n]['median'] / nio[n]['median']:.2f}"
        for n in calls
        if n in petal and n in nio and nio[n]["median"] > 0
    ]
    if shares:
        lines += ["", "Petal's cost above the floor as a share of NIO's (medians): " + ", ".join(shares) + "."]
    if per_call_sent:
        # A variant that sends copies or retries pays for their calls as well: the same rounds,
        # each side's CPU divided by the backend calls it sent, tell the cost of the machinery
        # from the cost of the extra calls.
        lines += ["", "The same rounds per backend call sent (copies and retries counted as calls), in µs:", ""]
        lines += paired_rows(per_call_sent, calls)
    lines.append("")
    return "\n".join(lines)


def median(values):
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None


def aggregate(runs):
    """Medians over rounds, per N and variant."""
    table = {}
    for n in sorted({run["n"] for run in runs}):
        table[n] = {}
        for variant in VARIANTS:
            mine = [run for run in runs if run["n"] == n and run["variant"] == variant]
            if not mine:
                continue
            percentiles = mine[0]["latency_us"]["percentiles"].keys()
            table[n][variant] = {
                "rounds": len(mine),
                "requests_per_second": median([r["requests_per_second"] for r in mine]),
                "requests_per_second_range": [
                    min(r["requests_per_second"] for r in mine),
                    max(r["requests_per_second"] for r in mine),
                ],
                "timeout_share": median([r["timeout_share"] for r in mine]),
                "cpu_us_per_request": median([r["cpu_us_per_request"] for r in mine]),
                "latency_us": {p: median([r["latency_us"]["percentiles"][p] for r in mine]) for p in percentiles},
            }
        floor = table[n].get(FLOOR, {}).get("cpu_us_per_request")
        for variant, row in table[n].items():
            cpu = row["cpu_us_per_request"]
            row["cpu_us_above_floor_per_call"] = (cpu - floor) / n if cpu is not None and floor is not None else None
    return table


def fmt(value, pattern="{:.1f}"):
    return "–" if value is None else pattern.format(value)


def markdown(table, meta):
    lines = []
    for n, rows in table.items():
        lines.append(f"**N = {n}** backend calls per request (median of {meta['rounds']} round(s)):")
        lines.append("")
        lines.append(
            "| variant | req/s | p50 ms | p90 ms | p99 ms | p99.9 ms | 504 | CPU µs/request "
            f"| above `{FLOOR}` per call, µs |"
        )
        lines.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
        for variant in VARIANTS:
            if variant not in rows:
                continue
            row = rows[variant]
            latency = row["latency_us"]
            lines.append(
                f"| {variant} | {row['requests_per_second']:.0f} | "
                + " | ".join(fmt(latency.get(p) / 1000 if latency.get(p) is not None else None, "{:.2f}")
                             for p in TABLE_PERCENTILES)
                + f" | {row['timeout_share']:.1%} | {fmt(row['cpu_us_per_request'])} | "
                + f"{fmt(row['cpu_us_above_floor_per_call'], '{:+.2f}')} |"
            )
        lines.append("")
    return "\n".join(lines)


def nines(p):
    """The x position of percentile `p` on a plot where 90, 99, 99.9 are evenly spaced."""
    return -math.log10(1 - float(p) / 100)


def plot(table, out_dir):
    """latency.png with matplotlib; latency.svg drawn by hand when it is missing. Either way the
    other file, left by an earlier run, is removed: the README links to one."""
    for stale in ("latency.png", "latency.svg"):
        if os.path.exists(os.path.join(out_dir, stale)):
            os.remove(os.path.join(out_dir, stale))
    plt = pyplot()
    if plt is None:
        return plot_svg(table, out_dir)
    figure, axes = plt.subplots(1, len(table), figsize=(6 * len(table), 4.5), squeeze=False)
    ticks = ["50", "90", "99", "99.9", "99.99"]
    for axis, (n, rows) in zip(axes[0], table.items()):
        for variant in VARIANTS:
            if variant not in rows:
                continue
            points = sorted(rows[variant]["latency_us"].items(), key=lambda item: float(item[0]))
            points = [(p, v) for p, v in points if float(p) >= 50]
            axis.plot([nines(p) for p, _ in points], [v / 1000 for _, v in points], marker=".", label=variant)
        axis.set_xticks([nines(p) for p in ticks], [f"p{p}" for p in ticks])
        axis.set_ylim(bottom=0)
        axis.set_xlabel("percentile")
        axis.set_ylabel("latency, ms")
        axis.set_title(f"N = {n} backend calls, 20 ms deadline")
        axis.grid(True, which="both", alpha=0.3)
        axis.legend()
    figure.tight_layout()
    path = os.path.join(out_dir, "latency.png")
    figure.savefig(path, dpi=110)
    plt.close(figure)
    return "latency.png"


def plot_svg(table, out_dir):
    width, height, pad = 480, 320, 50
    colors = {
        "petal": "#c2185b", "async": "#1976d2", "nio": "#388e3c", "callbacks": "#616161",
        "hedged": "#f57c00", "limited": "#7b1fa2", "resilient": "#00897b", "batch": "#6d4c41",
        "guide": "#ad1457",
    }
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width * len(table)}" height="{height}">']
    for panel, (n, rows) in enumerate(table.items()):
        x0 = panel * width
        values = [v for row in rows.values() for p, v in row["latency_us"].items() if float(p) >= 50]
        top = max(values) * 1.05 or 1
        right = nines("99.99")

        def x(p):
            return x0 + pad + (nines(p) - nines("50")) / (right - nines("50")) * (width - 2 * pad)

        def y(v):
            return height - pad - v / top * (height - 2 * pad)

        parts.append(f'<text x="{x0 + width / 2}" y="20" text-anchor="middle">N = {n}, latency (ms)</text>')
        for p in ["50", "90", "99", "99.9", "99.99"]:
            parts.append(f'<text x="{x(p):.0f}" y="{height - pad + 18}" text-anchor="middle" font-size="11">p{p}</text>')
        for tick in range(0, int(top / 1000) + 1, 5):
            parts.append(f'<text x="{x0 + 5}" y="{y(tick * 1000):.0f}" font-size="11">{tick}</text>')
        for index, variant in enumerate(v for v in VARIANTS if v in rows):
            points = sorted(
                ((p, v) for p, v in rows[variant]["latency_us"].items() if float(p) >= 50),
                key=lambda item: float(item[0]),
            )
            path = " ".join(f"{x(p):.1f},{y(v):.1f}" for p, v in points)
            parts.append(f'<polyline fill="none" stroke="{colors[variant]}" stroke-width="2" points="{path}"/>')
            parts.append(
                f'<text x="{x0 + pad + 5}" y="{40 + 14 * index}" fill="{colors[variant]}" font-size="12">{variant}</text>'
            )
    parts.append("</svg>")
    with open(os.path.join(out_dir, "latency.svg"), "w") as file:
        file.write("\n".join(parts) + "\n")
    return "latency.svg"


def replace_section(readme, section, begin=BEGIN, end=END):
    """Replaces what lies between the markers `begin` and `end` in `readme` with `section`."""
    with open(readme) as file:
        text = file.read()
    start, stop = text.find(begin), text.find(end)
    if start < 0 or stop < start:
        raise SystemExit(f"report: {readme} has no {begin} ... {end} section")
    text = text[: start + len(begin)] + "\n" + section.rstrip() + "\n" + text[stop:]
    with open(readme, "w") as file:
        file.write(text)


def pyplot():
    """matplotlib's pyplot drawing to files (Agg), or None when matplotlib is missing."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return None
    return plt


def response_problems(wrk, served, refused, connections, timeouts_allowed=False):
    """What is wrong with a wrk run against the server's own counts: `served` requests answered
    200, 503 or 504 by the server, `refused` of them 503 or 504. wrk stops with up to one request
    in flight per connection, which the server may still count; a response wrk counted that the
    server did not is one answered with another status. Socket errors are always problems, and
    wrk's own timeouts (2 s) unless `timeouts_allowed`."""
    problems = []
    if wrk["requests"] > served or served - wrk["requests"] > connections + wrk["errors"]["timeout"]:
        problems.append(f"wrk counted {wrk['requests']} responses, the server answered {served} with 200, 503 or 504")
    if wrk["errors"]["status"] > refused:
        problems.append(f"{wrk['errors']['status']} non-2xx responses, only {refused} 504 or 503")
    sockets = {k: v for k, v in wrk["errors"].items() if k not in ("status", "timeout") and v}
    if sockets or (not timeouts_allowed and wrk["errors"]["timeout"]):
        problems.append(f"socket errors or timeouts: {dict(sockets, timeout=wrk['errors']['timeout'])}")
    return problems


def publish(out_dir, name, data, section, readme=None, markers=(BEGIN, END)):
    """Writes DIR/NAME.json (`data`) and DIR/NAME.md (`section`, its links relative to DIR), and
    replaces the README's section between `markers` with `section` if a README is given."""
    with open(os.path.join(out_dir, f"{name}.json"), "w") as file:
        json.dump(data, file, indent=2, sort_keys=True)
        file.write("\n")
    with open(os.path.join(out_dir, f"{name}.md"), "w") as file:
        file.write(section.replace("](Results/", "](") + "\n")
    if readme:
        replace_section(readme, section, *markers)


def exit_with(problems):
    """Prints each problem as FAILED on standard error, and exits 1 if there was one, else 0."""
    for problem in problems:
        print(f"FAILED: {problem}", file=sys.stderr)
    sys.exit(1 if problems else 0)


def command_parser(doc):
    """A parser whose description is `doc`'s first line, and its subcommands."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    return parser, parser.add_subparsers(dest="command", required=True)


def summarize(args):
    with open(args.runs) as file:
        runs = [json.loads(line) for line in file if line.strip()]
    final = read_json(args.final_stats)
    meta = dict(item.split("=", 1) for item in args.env)
    meta["rounds"] = max((run["round"] for run in runs), default=0)
    meta["rss_kb_before_load"] = args.rss_before
    meta["rss_kb_after_load"] = args.rss_after
    table = aggregate(runs)
    pairs = []
    if args.pairs:
        with open(args.pairs) as file:
            pairs = [json.loads(line) for line in file if line.strip()]
    paired = paired_table(pairs)

    problems = [f"round {r['round']} n={r['n']} {r['variant']}: {p}" for r in runs for p in r["problems"]]
    problems += [f"paired round {e['round']} n={e['n']}: {p}" for e in pairs for p in e["problems"]]
    warnings = []
    for variant, counts in final["variants"].items():
        if counts["pending"]:
            message = f"{variant}: {counts['pending']} backend calls pending one second after the load"
            (problems if variant == "petal" else warnings).append(message)
    for name in (
        "abandonedPromiseCount",
        "unobservedFailureCount",
        "repeatedResolutionCount",
        "pendingTimeoutCount",
        "parkedWaitCount",
        "openCancellationRecordCount",
    ):
        if final["petal"].get(name):
            problems.append(f"petal: {name} = {final['petal'][name]} after the load")

    os.makedirs(args.out_dir, exist_ok=True)
    image = plot(table, args.out_dir)
    body = markdown(table, meta)
    if paired:
        body += "\n" + paired_markdown(
            paired,
            meta["rounds"],
            meta.get("duration", "?"),
            paired_table(pairs, "difference_us_per_call_sent"),
            pinned=meta.get("pinned") == "yes",
        )
    results = {
        "meta": meta,
        "summary": table,
        "paired": paired,
        "paired_per_call_sent": paired_table(pairs, "difference_us_per_call_sent"),
        "final_stats": final,
        "runs": runs,
        "pairs": pairs,
        "problems": problems,
    }
    with open(os.path.join(args.out_dir, "results.json"), "w") as file:
        json.dump(results, file, indent=2, sort_keys=True)
        file.write("\n")

    pending = ", ".join(f"{v} {final['variants'][v]['pending']}" for v in VARIANTS if v in final["variants"])
    details = [
        f"Run of {meta.get('date', '?')} on {meta.get('machine', '?')}, commit {meta.get('commit', '?')}: "
        f"wrk -t1 -c{CONNECTIONS} -d{meta.get('duration', '?')}s per run, variants interleaved, "
        f"{meta['rounds']} round(s); wrk and the server share the machine. Latencies are what each response "
        "took (wrk's coordinated-omission correction undone, see above); CPU is the server's user + system "
        "time over the requests it answered.",
        "",
        body,
        f"Server RSS: {int(args.rss_before) / 1024:.1f} MiB before the load, {int(args.rss_after) / 1024:.1f} MiB after. "
        f"Backend calls pending one second after the load: {pending}. "
        f"Petal's counters then: {json.dumps(final['petal'], sort_keys=True)}.",
        "",
        f"![Latency by percentile](Results/{image})",
    ]
    section = "\n".join(details)
    with open(os.path.join(args.out_dir, "results.md"), "w") as file:
        file.write(section.replace("](Results/", "](") + "\n")
    if args.readme:
        replace_section(args.readme, section)

    print()
    print(body)
    print(f"server RSS {int(args.rss_before) / 1024:.1f} MiB before the load, {int(args.rss_after) / 1024:.1f} MiB after")
    print(f"pending backend calls 1 s after the load: {pending}")
    print(f"petal counters: {json.dumps(final['petal'], sort_keys=True)}")
    print(f"results in {args.out_dir} (results.json, results.md, {image})")
    for warning in warnings:
        print(f"warning: {warning}")
    exit_with(problems)


def pairs(args):
    """The paired table alone (`Scripts/service --only pairs`), from the rounds' lines; with
    `--readme`, also the README's section of long paired runs, headed by when and where it ran."""
    with open(args.pairs) as file:
        entries = [json.loads(line) for line in file if line.strip()]
    problems = [problem for entry in entries for problem in entry["problems"]]
    table = paired_markdown(
        paired_table(entries),
        args.rounds,
        args.duration,
        paired_table(entries, "difference_us_per_call_sent"),
        pinned=args.pinned,
    )
    print(table)
    if args.readme and not problems:
        meta = dict(item.split("=", 1) for item in args.env)
        heading = (
            f"Run of {meta.get('date', '?')} on {meta.get('machine', '?')}, commit {meta.get('commit', '?')}: "
            f"`Scripts/service --only pairs --readme{' --pin' if args.pinned else ''}` with {args.rounds} rounds of "
            f"{args.duration} s.\n\n"
        )
        replace_section(args.readme, heading + table, PAIRS_BEGIN, PAIRS_END)
    exit_with(problems)


def main():
    parser, commands = command_parser(__doc__)
    rec = commands.add_parser("record")
    rec.add_argument("--variant", required=True)
    rec.add_argument("--n", type=int, required=True)
    rec.add_argument("--round", type=int, required=True)
    rec.add_argument("--wrk", required=True)
    rec.add_argument("--stats-before", required=True)
    rec.add_argument("--stats-after", required=True)
    rec.add_argument("--cpu-before", type=int, required=True)
    rec.add_argument("--cpu-after", type=int, required=True)
    rec.add_argument("--clk-tck", type=int, default=os.sysconf("SC_CLK_TCK"))
    rec.add_argument("--out", required=True)
    pairing = commands.add_parser("pair")
    pairing.add_argument("--round", type=int, required=True)
    pairing.add_argument("--n", type=int, required=True)
    pairing.add_argument("--side", nargs=6, action="append", required=True, metavar="ARG")
    pairing.add_argument("--clk-tck", type=int, default=os.sysconf("SC_CLK_TCK"))
    pairing.add_argument("--out", required=True)
    only_pairs = commands.add_parser("pairs")
    only_pairs.add_argument("--pairs", required=True)
    only_pairs.add_argument("--rounds", type=int, required=True)
    only_pairs.add_argument("--duration", type=int, required=True)
    only_pairs.add_argument("--readme")
    only_pairs.add_argument("--pinned", action="store_true")
    only_pairs.add_argument("--env", action="append", default=[])
    summary = commands.add_parser("summarize")
    summary.add_argument("--runs", required=True)
    summary.add_argument("--final-stats", required=True)
    summary.add_argument("--pairs")
    summary.add_argument("--rss-before", required=True)
    summary.add_argument("--rss-after", required=True)
    summary.add_argument("--out-dir", required=True)
    summary.add_argument("--readme")
    summary.add_argument("--env", action="append", default=[])
    args = parser.parse_args()
    {"record": record, "pair": pair, "pairs": pairs, "summarize": summarize}[args.command](args)


if __name__ == "__main__":
    main()
