#!/usr/bin/env python3
"""The correctness pass of Scripts/service: every variant answers right, or 504, and leaves nothing.

For each variant, REQUESTS requests with a random key K and a random N (1..MAX_N), from a few
threads on keep-alive connections:
- every status is 200 or 504;
- every 200 body is exactly {"sum": S} with S = K * N * (N + 1) / 2;
- the share of 504s is in a band around what the hangs predict: a call never answers with
  probability 1/50, so a request of N calls times out with probability 1 - 0.98^N (about 6% at
  N = 3); the band is generous above (a loaded machine adds late answers) and tight enough below
  to catch hangs that are not honoured. The hedged variants (`hedged`, `limited`, `resilient`) send up to 3
  copies of a call, so a call is lost only if all three are (1/50^3), and a request of N calls
  times out with probability 1 - (1 - 1/50^3)^N: about 0.04% at N = 6;
- the server's own counts agree: /stats gained exactly as many answers as requests were sent, and
  no backend call is left pending once the requests are answered.
Then a few bad requests must get 400, and an unknown variant 404.

Bounded in time: every socket has a timeout and the whole pass has a deadline. Loopback only.
Prints a summary per variant and exits non-zero on the first kind of failure found.
"""

import argparse
import http.client
import json
import math
import random
import sys
import threading
import time
import urllib.parse

HANG_PROBABILITY = 1 / 50
# Copies of each call a variant sends at most (HedgedFanout's policy); 1 for the others.
COPIES = {"hedged": 3, "limited": 3, "resilient": 3}


def parse_args():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", required=True, help="the service, http://HOST:PORT")
    parser.add_argument("--variants", default="petal,async,nio,callbacks,hedged,limited,resilient,batch,guide")
    parser.add_argument("--requests", type=int, default=1000, help="per variant")
    parser.add_argument("--threads", type=int, default=8)
    parser.add_argument("--max-n", type=int, default=6, help="N is drawn from 1..MAX_N")
    parser.add_argument("--time-limit", type=float, default=120, help="seconds for the whole pass")
    parser.add_argument("--seed", type=int, default=None)
    return parser.parse_args()


class Client:
    """One keep-alive connection, reopened after an error."""

    def __init__(self, host, port, timeout):
        self.host, self.port, self.timeout = host, port, timeout
        self.connection = None

    def get(self, path):
        for attempt in range(2):
            if self.connection is None:
                self.connection = http.client.HTTPConnection(self.host, self.port, timeout=self.timeout)
            try:
                self.connection.request("GET", path)
                response = self.connection.getresponse()
                return response.status, response.read()
            except (http.client.HTTPException, OSError):
                self.connection.close()
                self.connection = None
                if attempt == 1:
                    raise
        raise AssertionError("unreachable")

    def close(self):
        if self.connection is not None:
            self.connection.close()


def stats(client):
    status, body = client.get("/stats")
    if status != 200:
        raise RuntimeError(f"/stats answered {status}")
    return json.loads(body)


def run_variant(variant, args, host, port, rng, deadline):
    """Sends the requests of one variant; returns (results, problems)."""
    plan = [(rng.randint(-1_000_000, 1_000_000), rng.randint(1, args.max_n)) for _ in range(args.requests)]
    results = [None] * len(plan)
    cursor = iter(range(len(plan)))
    lock = threading.Lock()
    errors = []

    def worker():
        client = Client(host, port, timeout=5)
        try:
            while time.monotonic() < deadline:
                with lock:
                    index = next(cursor, None)
                if index is None:
                    return
                key, n = plan[index]
                status, body = client.get(f"/fanout/{variant}?key={key}&n={n}")
                results[index] = (status, body)
        except Exception as error:  # reported below, the pass fails
            errors.append(repr(error))
        finally:
            client.close()

    threads = [threading.Thread(target=worker, daemon=True) for _ in range(args.threads)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(max(0.0, deadline - time.monotonic()) + 6)

    problems = [f"client error: {error}" for error in errors[:3]]
    missing = sum(result is None for result in results)
    if missing:
        problems.append(f"{missing} requests not answered within the time limit")
    wrong = []
    timeouts = 0
    expected_timeout_share = 0.0
    variance = 0.0
    for (key, n), result in zip(plan, results):
        p = 1 - (1 - HANG_PROBABILITY ** COPIES.get(variant, 1)) ** n
        expected_timeout_share += p
        variance += p * (1 - p)
        if result is None:
            continue
        status, body = result
        if status == 504:
            timeouts += 1
        elif status == 200:
            expected = key * n * (n + 1) // 2
            if body != f'{{"sum": {expected}}}\n'.encode():
                wrong.append(f"key={key} n={n}: {body!r}, expected sum {expected}")
        else:
            wrong.append(f"key={key} n={n}: status {status} {body[:100]!r}")
    if wrong:
        problems.append(f"{len(wrong)} wrong answers, first: {wrong[:3]}")

    answered = len(plan) - missing
    share = timeouts / answered if answered else 0.0
    expected = expected_timeout_share / len(plan)
    sigma = math.sqrt(variance) / len(plan)
    low, high = max(0.0, expected - 4 * sigma), expected + 4 * sigma + 0.10
    if not low <= share <= high:
        problems.append(f"504 share {share:.3f} outside [{low:.3f}, {high:.3f}] (expected {expected:.3f})")
    summary = {
        "variant": variant,
        "requests": len(plan),
        "answered": answered,
        "ok": answered - timeouts - len(wrong),
        "timeouts": timeouts,
        "timeout_share": round(share, 4),
        "expected_timeout_share": round(expected, 4),
        "band": [round(low, 4), round(high, 4)],
    }
    return summary, problems


def check_bad_input(client):
    problems = []
    cases = [
        ("/fanout/petal?key=1&n=0", 400),
        ("/fanout/async?key=1&n=257", 400),
        ("/fanout/nio?key=1&n=three", 400),
        ("/fanout/callbacks?key=x", 400),
        ("/fanout/petal?key=10000000000000", 400),
        ("/fanout/unknown?key=1", 404),
    ]
    for path, expected in cases:
        status, body = client.get(path)
        if status != expected:
            problems.append(f"{path}: status {status}, expected {expected} ({body[:100]!r})")
    return problems


def main():
    args = parse_args()
    url = urllib.parse.urlsplit(args.url)
    host, port = url.hostname, url.port
    if host not in ("127.0.0.1", "localhost", "::1"):
        sys.exit(f"correctness: loopback only, not {host}")
    rng = random.Random(args.seed)
    deadline = time.monotonic() + args.time_limit
    control = Client(host, port, timeout=5)
    failures = []
    before = stats(control)
    summaries = []
    for variant in args.variants.split(","):
        summary, problems = run_variant(variant, args, host, port, rng, deadline)
        summaries.append(summary)
        print(
            f"correctness {variant:9}: {summary['ok']} ok, {summary['timeouts']} x 504 "
            f"({summary['timeout_share']:.1%}; expected {summary['expected_timeout_share']:.1%}, "
            f"band {summary['band'][0]:.1%}..{summary['band'][1]:.1%})"
            + ("" if not problems else " FAILED"),
            flush=True,
        )
        failures += [f"{variant}: {problem}" for problem in problems]

    after = stats(control)
    for summary in summaries:
        variant = summary["variant"]
        old, new = before["variants"][variant], after["variants"][variant]
        counted = (new["completed"] - old["completed"]) + (new["timedOut"] - old["timedOut"])
        if counted != summary["answered"]:
            failures.append(f"{variant}: the server counted {counted} answers, the client got {summary['answered']}")
        if new["pending"] != 0:
            failures.append(f"{variant}: {new['pending']} backend calls still pending after every request was answered")
    failures += check_bad_input(control)
    for name in ("abandonedPromiseCount", "unobservedFailureCount", "repeatedResolutionCount"):
        if after["petal"][name] != 0:
            failures.append(f"petal: {name} = {after['petal'][name]}")
    control.close()

    print(json.dumps({"correctness": summaries}), flush=True)
    if failures:
        for failure in failures:
            print(f"correctness FAILED: {failure}", file=sys.stderr)
        sys.exit(1)
    print("correctness: passed", flush=True)


if __name__ == "__main__":
    main()
