#!/usr/bin/env python3
"""Clients that leave: send a request, then close or reset the connection before the answer.

    leave.py --url http://127.0.0.1:PORT --variants petal,hedged --n 32 --seconds 2 [--threads 2]

Each thread, until the time is up, connects, sends `GET /fanout/VARIANT?key=K&n=N` (a random
variant of those given), waits a random 0-25 ms (before the service's 20 ms deadline, or just
after it), then closes the socket (FIN) or, half of the time, resets it (SO_LINGER 0: RST),
with the request in flight. The server must then cancel the request's work; Scripts/service
checks that no backend call is left pending. Prints one line of counts; exit status 1 if no
request could be sent at all. Loopback only; bounded by --seconds.
"""
import argparse
import random
import socket
import struct
import threading
import time
from urllib.parse import urlsplit

# SO_LINGER on, zero seconds: close() sends RST and drops what is unsent.
RESET_ON_CLOSE = struct.pack("ii", 1, 0)


class Leavers:
    """Threads of clients that leave, until `stop` is set."""

    def __init__(self, host, port, variants, n, threads, stop):
        self.host, self.port, self.variants, self.n, self.stop = host, port, variants, n, stop
        self.sent = 0
        self.reset = 0
        self.errors = 0
        self.lock = threading.Lock()
        self.threads = [threading.Thread(target=self.run, args=(seed,), daemon=True) for seed in range(threads)]

    def start(self):
        for thread in self.threads:
            thread.start()

    def join(self):
        for thread in self.threads:
            thread.join(timeout=10)

    def run(self, seed):
        rng = random.Random(seed)
        while not self.stop.is_set():
            variant = rng.choice(self.variants)
            resets = rng.random() < 0.5
            try:
                with socket.create_connection((self.host, self.port), timeout=2) as connection:
                    request = f"GET /fanout/{variant}?key={rng.randint(1, 9)}&n={self.n} HTTP/1.1\r\nHost: leave\r\n\r\n"
                    connection.sendall(request.encode())
                    time.sleep(rng.uniform(0, 0.025))
                    if resets:
                        connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, RESET_ON_CLOSE)
            except OSError:
                with self.lock:
                    self.errors += 1
                continue
            with self.lock:
                self.sent += 1
                self.reset += resets


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", required=True)
    parser.add_argument("--variants", required=True, help="comma-separated")
    parser.add_argument("--n", type=int, default=32)
    parser.add_argument("--seconds", type=float, default=2)
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args()
    address = urlsplit(args.url)
    if address.hostname != "127.0.0.1":
        raise SystemExit("leave: loopback only (http://127.0.0.1:PORT)")
    stop = threading.Event()
    leavers = Leavers(address.hostname, address.port, args.variants.split(","), args.n, args.threads, stop)
    leavers.start()
    time.sleep(args.seconds)
    stop.set()
    leavers.join()
    print(f"clients that left: {leavers.sent} requests ({leavers.reset} reset, the rest closed), "
          f"{leavers.errors} connection errors")
    raise SystemExit(0 if leavers.sent else 1)


if __name__ == "__main__":
    main()
