#!/usr/bin/env python3
"""The fault runs of Scripts/service --faults (issue 56): variants loaded through a fault schedule.

    faults.py length    --schedule KIND@STARTs+LENGTHs[,...] --tail S
    faults.py sample    --round R --server VARIANT URL [--server ...] --interval S --until S --out samples.jsonl
    faults.py check     --round R --variant V --wrk FILE --stats FILE --connections C --out checks.jsonl
    faults.py summarize --samples samples.jsonl --checks checks.jsonl --schedule S --length S --out-dir DIR
                        [--image NAME] [--readme README.md] [--env KEY=VALUE ...]

`length` prints how long a run of the schedule lasts, in whole seconds: its last fault's end plus a
calm tail.

`sample` reads each server's `/stats` every S seconds (one server per variant, each loaded on
its own variant) until every server's own clock (`faults.elapsed_s`) has passed `--until`, and
appends one line per read: the variant's counters and the fault phase the server was in.

`check` asserts behaviour after a run, never timing: every response wrk counted was 200, 503
or 504 (the server's counts agree with wrk's), no socket error, no backend call pending one
second after the load, and Petal's counters clean (no abandoned promise, unobserved failure,
repeated resolution, or timeout left in its timer heap).

`summarize` turns consecutive reads into windows (backend calls started per second, answers
per second by status, the window's server-side p99), keeps the windows whose two reads fall in
the same phase and that answered something (the load runs), and gives, per phase and variant,
the median over those windows of every round; it plots round 1's windows over time (calls,
answers by status, p99) into DIR/IMAGE, writes DIR/faults.json and DIR/faults.md, and replaces
the README's marked section if given. It exits 1 if a check failed.
"""

import json
import math
import os
import re
import sys
import time
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from report import (  # noqa: E402
    command_parser, exit_with, fmt, median, publish, pyplot, read_json, response_problems, wrk_result)

BEGIN = "<!-- service-faults:begin -->"
END = "<!-- service-faults:end -->"
VARIANTS = ["resilient", "hedged", "petal"]
COLORS = {"resilient": "#00897b", "hedged": "#f57c00", "petal": "#c2185b"}
FAULT_COLORS = {"outage": "#e57373", "hang": "#9575cd", "slow": "#ffd54f", "shift": "#81c784"}
STATUSES = [("200", "completed"), ("504", "timedOut"), ("503", "shed+failed")]
PETAL_CLEAN = ("abandonedPromiseCount", "unobservedFailureCount", "repeatedResolutionCount", "pendingTimeoutCount")
ENTRY = re.compile(r"^(outage|hang|slow|shift)@(\d+(?:\.\d+)?)s\+(\d+(?:\.\d+)?)s$")


def faults_of(schedule):
    """The schedule's faults as (kind, start, end) in seconds, sorted. The server parses it
    strictly (and refuses it before this runs); this only reads a schedule it accepted."""
    faults = []
    for entry in schedule.split(","):
        match = ENTRY.match(entry)
        if not match:
            raise SystemExit(f"faults: cannot read '{entry}' of {schedule}")
        start, length = float(match[2]), float(match[3])
        faults.append((match[1], start, start + length))
    return sorted(faults, key=lambda fault: fault[1])


def phases_of(schedule, length):
    """The phases the server cuts its run into, as it numbers them: calm between the faults."""
    phases, time_ = [], 0.0
    for kind, start, end in faults_of(schedule):
        if start > time_:
            phases.append(("calm", time_, start))
        phases.append((kind, start, end))
        time_ = end
    phases.append(("calm", time_, max(length, time_)))
    return phases


def length(args):
    """Whole seconds, rounded up: wrk takes its duration in whole seconds."""
    print(math.ceil(max(end for _, _, end in faults_of(args.schedule)) + args.tail))


def sample(args):
    servers = [(variant, url.rstrip("/")) for variant, url in args.server]
    deadline = time.monotonic() + args.until + 60  # bounded, whatever the servers say
    done = set()
    with open(args.out, "a") as out:
        next_read = time.monotonic()
        while len(done) < len(servers) and time.monotonic() < deadline:
            for variant, url in servers:
                try:
                    with urllib.request.urlopen(f"{url}/stats", timeout=2) as response:
                        stats = json.load(response)
                except OSError as error:
                    raise SystemExit(f"faults: GET {url}/stats failed: {error}")
                line = {"round": args.round, "variant": variant, "t": time.monotonic(),
                        "faults": stats["faults"], "stats": stats["variants"][variant]}
                out.write(json.dumps(line) + "\n")
                if stats["faults"]["elapsed_s"] >= args.until:
                    done.add(variant)
            out.flush()
            next_read += args.interval
            time.sleep(max(0.0, next_read - time.monotonic()))


def check(args):
    wrk = wrk_result(args.wrk)
    stats = read_json(args.stats)
    counts = stats["variants"][args.variant]
    refused = counts["timedOut"] + counts["shed"] + counts["failed"]
    # wrk's 2 s timeout is never reached: every request ends by its 20 ms deadline.
    problems = response_problems(wrk, counts["completed"] + refused, refused, args.connections)
    pending = {variant: c["pending"] for variant, c in stats["variants"].items() if c["pending"]}
    if pending:
        problems.append(f"backend calls pending one second after the load: {pending}")
    problems += [f"petal: {name} = {stats['petal'][name]}" for name in PETAL_CLEAN if stats["petal"].get(name)]
    entry = {"round": args.round, "variant": args.variant, "requests": wrk["requests"], "counts": counts,
             "problems": problems}
    with open(args.out, "a") as file:
        file.write(json.dumps(entry) + "\n")
    print(f"  round {args.round} {args.variant:9} {wrk['requests']} responses: {counts['completed']} 200, "
          f"{counts['timedOut']} 504, {counts['shed'] + counts['failed']} 503 ({counts['failed']} failed), "
          f"{counts['started']} backend calls, pending {counts['pending']}"
          + ("" if not problems else "  PROBLEM: " + "; ".join(problems)), flush=True)


def windows(samples):
    """Per (round, variant), each pair of consecutive reads as a window: its end on the server's
    clock, its phase (None when the two reads straddle a change), and its rates and p99."""
    series = {}
    for line in samples:
        series.setdefault((line["round"], line["variant"]), []).append(line)
    result = []
    for (round_, variant), lines in series.items():
        for before, after in zip(lines, lines[1:]):
            seconds = after["faults"]["elapsed_s"] - before["faults"]["elapsed_s"]
            if seconds <= 0:
                continue
            delta = {key: after["stats"][key] - before["stats"][key]
                     for key in ("started", "completed", "timedOut", "shed", "failed")}
            same = before["faults"]["phase"] == after["faults"]["phase"]
            result.append({
                "round": round_, "variant": variant, "end_s": after["faults"]["elapsed_s"],
                "phase": after["faults"]["phase"] if same else None,
                "calls": delta["started"] / seconds,
                "200": delta["completed"] / seconds,
                "504": delta["timedOut"] / seconds,
                "503": (delta["shed"] + delta["failed"]) / seconds,
                "p99_ms": after["stats"].get("p99_ms"),
                "breaker": after["stats"].get("breaker"),
                "breaker_before": before["stats"].get("breaker"),
            })
    return result


def phase_table(windows_, phases):
    """Per phase and variant, the medians over the loaded windows of that phase."""
    table = []
    for index, (kind, start, end) in enumerate(phases):
        for variant in VARIANTS:
            mine = [w for w in windows_ if w["phase"] == index and w["variant"] == variant
                    and w["200"] + w["504"] + w["503"] > 0]
            if not mine:
                continue
            answers = median([w["200"] + w["504"] + w["503"] for w in mine])
            calls = median([w["calls"] for w in mine])
            table.append({
                "phase": index, "fault": kind, "from_s": start, "to_s": end, "variant": variant, "windows": len(mine),
                "calls": calls, "answers": answers, "calls_per_answer": calls / answers if answers else None,
                **{status: median([w[status] for w in mine]) for status, _ in STATUSES},
                "p99_ms": median([w["p99_ms"] for w in mine]),
                # The share of the phase's windows that ended with the breaker open or half-open
                # (refusing calls, or all but its trials); None: no breaker.
                "open_share": (sum(w["breaker"] in ("open", "half-open") for w in mine) / len(mine)
                               if any(w["breaker"] for w in mine) else None),
            })
    return table


# The fan-out of every request in the fault runs, to count first calls from answers.
FANOUT = 32
# Seconds after a latency shift begins before its windows count as settled.
SETTLE_S = 2.0
# A window with at most this share of failed answers (504 and 503) counts as recovered.
RECOVERED_SHARE = 0.02


def fault_targets(windows_, phases):
    """Per fault and variant, the figures issue 56's targets name (each the median over rounds,
    or over the phase's windows where said): backend calls against hedged's and against the
    variant's own first calm; the p99 of the windows that began and ended with the breaker open;
    the seconds from the fault's end until the variant recovered (the first window after it from
    which four in a row failed at most 2% of their answers); and, once the fault is 2 s old, the
    504 share and the extra calls per first call (N calls for every request answered 200 or 504)."""
    def loaded(w):
        return w["200"] + w["504"] + w["503"] > 0

    def phase_median(variant, index, key, settled=False):
        start = phases[index][1]
        mine = [key(w) if callable(key) else w[key] for w in windows_
                if w["phase"] == index and w["variant"] == variant and loaded(w)
                and (not settled or w["end_s"] - 0.25 >= start + SETTLE_S)]
        mine = [value for value in mine if value is not None]
        return median(mine) if mine else None

    calm = next((index for index, (kind, _, _) in enumerate(phases) if kind == "calm"), None)
    rows = []
    for index, (kind, start, end) in enumerate(phases):
        if kind == "calm":
            continue
        hedged_calls = phase_median("hedged", index, "calls")
        for variant in VARIANTS:
            calls = phase_median(variant, index, "calls")
            if calls is None:
                continue
            calm_calls = phase_median(variant, calm, "calls") if calm is not None else None
            open_p99 = [w["p99_ms"] for w in windows_ if w["phase"] == index and w["variant"] == variant
                        and w["breaker"] == "open" and w["breaker_before"] == "open" and w["p99_ms"] is not None]
            recoveries = []
            for round_ in sorted({w["round"] for w in windows_}):
                after = sorted((w for w in windows_ if w["round"] == round_ and w["variant"] == variant
                                and w["end_s"] > end and loaded(w)), key=lambda w: w["end_s"])
                good = [(w["504"] + w["503"]) <= RECOVERED_SHARE * (w["200"] + w["504"] + w["503"]) for w in after]
                first = next((i for i in range(len(after) - 3) if all(good[i:i + 4])), None)
                if first is not None:
                    recoveries.append(after[first]["end_s"] - end)
            share504 = phase_median(variant, index, lambda w: w["504"] / (w["200"] + w["504"] + w["503"]), True)
            extra = phase_median(
                variant, index,
                lambda w: w["calls"] / (FANOUT * (w["200"] + w["504"])) - 1 if w["200"] + w["504"] else None, True)
            rows.append({
                "phase": index, "fault": kind, "variant": variant,
                "calls_vs_hedged": calls / hedged_calls if hedged_calls else None,
                "calls_vs_calm": calls / calm_calls if calm_calls else None,
                "open_p99_ms": median(open_p99) if open_p99 else None,
                "open_p99_max_ms": max(open_p99) if open_p99 else None,
                "open_windows": len(open_p99),
                "recovery_s": median(recoveries) if recoveries else None,
                "settled_504": share504, "settled_extra_calls": extra,
            })
    return rows


def targets_markdown(rows):
    lines = ["| fault | variant | calls vs hedged | calls vs own calm | p99 while open, ms (median, max) "
             "| recovered after, s | 504 once settled | extra calls once settled |",
             "|---|---|---:|---:|---:|---:|---:|---:|"]
    for row in rows:
        open_p99 = (f"{row['open_p99_ms']:.2f}, {row['open_p99_max_ms']:.2f} ({row['open_windows']} windows)"
                    if row["open_p99_ms"] is not None else "–")
        lines.append(
            f"| {row['phase'] + 1}. {row['fault']} | {row['variant']} | {fmt(row['calls_vs_hedged'], '{:.1%}')} "
            f"| {fmt(row['calls_vs_calm'], '{:.2f}x')} | {open_p99} | {fmt(row['recovery_s'], '{:.2f}')} "
            f"| {fmt(row['settled_504'], '{:.1%}')} | {fmt(row['settled_extra_calls'], '{:+.1%}')} |")
    return "\n".join(lines) + "\n"


def markdown(table):
    lines = ["| phase | variant | backend calls/s | answers/s | 200/s | 504/s | 503/s | calls per answer | p99 ms "
             "| breaker not closed |",
             "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for row in table:
        lines.append(
            f"| {row['phase'] + 1}. {row['fault']} {row['from_s']:g}-{row['to_s']:g} s | {row['variant']} "
            f"| {row['calls']:.0f} | {row['answers']:.0f} | {row['200']:.0f} | {row['504']:.0f} | {row['503']:.0f} "
            f"| {fmt(row['calls_per_answer'], '{:.1f}')} | {fmt(row['p99_ms'], '{:.2f}')} "
            f"| {fmt(row['open_share'], '{:.0%}')} |")
    return "\n".join(lines) + "\n"


def plot(windows_, phases, path):
    """Round 1 over time: backend calls/s, answers/s by status, p99; the faults shaded."""
    plt = pyplot()
    if plt is None:
        return None
    figure, axes = plt.subplots(3, 1, figsize=(11, 9), sharex=True)
    first = [w for w in windows_ if w["round"] == 1]
    for variant in VARIANTS:
        mine = sorted((w for w in first if w["variant"] == variant), key=lambda w: w["end_s"])
        if not mine:
            continue
        x = [w["end_s"] for w in mine]
        color = COLORS[variant]
        axes[0].plot(x, [w["calls"] for w in mine], color=color, label=variant)
        for (status, _), style in zip(STATUSES, ["-", ":", "--"]):
            axes[1].plot(x, [w[status] for w in mine], color=color, linestyle=style, label=f"{variant} {status}")
        axes[2].plot(x, [w["p99_ms"] for w in mine], color=color, marker=".", label=variant)
    for axis in axes:
        for kind, start, end in phases:
            if kind != "calm":
                axis.axvspan(start, end, color=FAULT_COLORS[kind], alpha=0.25, linewidth=0)
        axis.grid(True, alpha=0.3)
        axis.set_ylim(bottom=0)
    for kind, start, end in phases:
        if kind != "calm":
            axes[0].text((start + end) / 2, 1.01, kind, transform=axes[0].get_xaxis_transform(), ha="center")
    axes[0].set_ylabel("backend calls / s")
    axes[1].set_ylabel("answers / s (200 solid,\n504 dotted, 503 dashed)")
    axes[2].set_ylabel("server p99 of the window, ms")
    axes[2].axhline(20, color="#999", linestyle="--", linewidth=1)
    axes[2].set_xlabel("seconds since the server's start")
    axes[0].legend(loc="upper right")
    axes[1].legend(loc="upper right", ncol=3, fontsize=8)
    figure.tight_layout()
    figure.savefig(path, dpi=100)
    plt.close(figure)
    return os.path.basename(path)


def summarize(args):
    samples = [json.loads(line) for line in open(args.samples) if line.strip()]
    checks = [json.loads(line) for line in open(args.checks) if line.strip()]
    meta = dict(item.split("=", 1) for item in args.env)
    phases = phases_of(args.schedule, args.length)
    windows_ = windows(samples)
    table = phase_table(windows_, phases)
    targets = fault_targets(windows_, phases)
    os.makedirs(args.out_dir, exist_ok=True)
    for stale in (args.image, os.path.splitext(args.image)[0] + ".svg"):
        if os.path.exists(os.path.join(args.out_dir, stale)):
            os.remove(os.path.join(args.out_dir, stale))
    image = plot(windows_, phases, os.path.join(args.out_dir, args.image))
    rounds = max((c["round"] for c in checks), default=0)
    body = markdown(table)
    section = "\n".join([
        f"Run of {meta.get('date', '?')} on {meta.get('machine', '?')}, commit {meta.get('commit', '?')}, "
        f"{meta.get('build', '?')} build: schedule `{args.schedule}` over {args.length:g} s, {rounds} round(s); "
        f"{', '.join(VARIANTS)} each in a server of its own, loaded at the same time (wrk -t1 -c{meta.get('connections', '?')}, N = 32); "
        f"`/stats` read every {meta.get('interval', '?')} s. Per phase, the medians over the windows between "
        "two reads in that phase (every round); p99 is the server's, over the requests answered in the window "
        "(200, 504, and 503 for a backend's failure).",
        "",
        body,
        "Against issue 56's targets, per fault (the medians over rounds; \"once settled\": the "
        f"windows from {SETTLE_S:g} s into the fault; \"recovered after\": from the fault's end to the "
        f"first of four windows in a row with at most {RECOVERED_SHARE:.0%} of answers 504 or 503):",
        "",
        targets_markdown(targets),
    ] + ([f"![Backend calls, answers and p99 through the faults](Results/{image})"] if image else []))
    publish(args.out_dir, "faults", {"meta": meta, "schedule": args.schedule, "phases": phases, "table": table,
                                     "targets": targets, "checks": checks, "windows": windows_}, section, args.readme, (BEGIN, END))
    print()
    print(body)
    print(targets_markdown(targets))
    print(f"results in {args.out_dir} (faults.json, faults.md{', ' + image if image else ''})")
    problems = [f"round {c['round']} {c['variant']}: {p}" for c in checks for p in c["problems"]]
    missing = [v for v in VARIANTS if not any(row["variant"] == v for row in table)]
    if missing:
        problems.append(f"no loaded window for {missing}")
    exit_with(problems)


# Each command's options: a type makes the option a required value of that type; a dict gives
# argparse's own keywords.
COMMANDS = {
    "length": (length, {"--schedule": str, "--tail": float}),
    "sample": (sample, {"--round": int, "--interval": float, "--until": float, "--out": str,
                        "--server": {"nargs": 2, "action": "append", "required": True, "metavar": ("VARIANT", "URL")}}),
    "check": (check, {"--round": int, "--variant": str, "--wrk": str, "--stats": str, "--connections": int,
                      "--out": str}),
    "summarize": (summarize, {"--samples": str, "--checks": str, "--schedule": str, "--length": float,
                              "--out-dir": str, "--image": {"default": "faults.png"}, "--readme": {},
                              "--env": {"action": "append", "default": []}}),
}


def main():
    parser, commands = command_parser(__doc__)
    for name, (_, options) in COMMANDS.items():
        command = commands.add_parser(name)
        for option, kind in options.items():
            command.add_argument(option, **(kind if isinstance(kind, dict) else {"type": kind, "required": True}))
    args = parser.parse_args()
    COMMANDS[args.command][0](args)


if __name__ == "__main__":
    main()
