#!/usr/bin/env python3
"""Writes the seed corpus of petal_fuzz (Tests/Fuzz/corpus) and its dictionary (petal.dict).

Each seed is a small program in petal_fuzz.c's input format: one configuration byte, then
4-byte instructions [thread << 6 | opcode, a, b, c]. The seeds are written out here, one
scenario each, so a reviewer can read what the fuzzer starts from; libFuzzer mutates them from
there. The opcode numbers are read from the FZ_OP_ enumeration in petal_fuzz.c, so this script
and the harness cannot drift apart.

Usage: Tests/Fuzz/make-corpus.py      (rewrites corpus/ and petal.dict next to this script)
"""
import pathlib
import random
import re
import shutil

HERE = pathlib.Path(__file__).resolve().parent
SOURCE = (HERE / "petal_fuzz.c").read_text()

# FZ_OP_SUBSCRIBE, FZ_OP_SUBSCRIBE_NODE, ... in declaration order, up to FZ_OP_COUNT.
body = re.search(r"enum \{\s*(FZ_OP_SUBSCRIBE,.*?)FZ_OP_COUNT", SOURCE, re.S).group(1)
OPS = {name[len("FZ_OP_"):]: index for index, name in enumerate(re.findall(r"(FZ_OP_\w+),", body))}
FUTURES, CELLS, SHARED = 4, 2, 6

# Callback actions (fz_action_decode: kind = b % 4, how = b // 4; target = c % 6, arg = c // 6).
NONE, RESOLVE, SUBSCRIBE, STATUS = range(4)
# Ways to resolve a future (fz_future_resolve's `how`).
WITH_STATUS, FULFIL, REJECT, CANCEL, INVALID = range(5)


def config(threads=2, cell1_resolved=False, kind=0):
    """Byte 0: 2-4 threads; cell 1 may start resolved with a kind."""
    return bytes([(threads - 2) | (4 if cell1_resolved else 0) | (kind & 3) << 3])


def op(thread, name, a=0, b=0, c=0):
    return bytes([thread << 6 | OPS[name], a & 255, b & 255, c & 255])


def action(kind, how=0, target=0, arg=0):
    """The (b, c) bytes of a callback action."""
    return kind + 4 * how, target + SHARED * arg


def subscribe(thread, future, kind=NONE, how=0, target=0, arg=0, node=False):
    b, c = action(kind, how, target, arg)
    return op(thread, "SUBSCRIBE_NODE" if node else "SUBSCRIBE", future, b, c)


def resolve(thread, future, how=FULFIL, status=0):
    return op(thread, "RESOLVE", future, how, status)


def wait(thread, future, mode, arg=0):
    """mode 0: a past deadline; 1: a few microseconds ahead; 2: invalid; 3: none if resolved."""
    return op(thread, "WAIT", future, mode, arg)


def chain(thread, length, mode=0, node=False, tail_kind=NONE, tail_target=0):
    """mode 0: all links subscribed first; 1: each subscribes the next, then resolves it;
    2: each resolves the next, then subscribes to it."""
    return op(thread, "CHAIN", mode + 3 * node, length - 1, tail_kind | tail_target << 3)


def private_new(thread, mailbox=0, subscribers=3, how=0, actions=0):
    return op(thread, "PRIVATE_NEW", mailbox, (subscribers - 1) | how << 3, actions)


def cell_subscribe(thread, cell, how=0, kind=NONE, target=0, action_how=0):
    """how 0: reserve and commit; 1: yield between them; 2: a caller-owned waiter."""
    return op(thread, "CELL_SUBSCRIBE", cell, how + 3 * target, kind + 4 * action_how)


SEEDS = {}


def seed(name, *parts):
    SEEDS[name] = b"".join(parts)


# --- futures ---------------------------------------------------------------------------------
seed("future-subscribe-then-resolve", config(2),
     subscribe(0, 0), subscribe(0, 0), subscribe(0, 0, node=True), resolve(1, 0))
seed("future-resolve-then-subscribe", config(2),
     resolve(0, 1, REJECT), subscribe(0, 1), subscribe(1, 1, node=True), op(1, "STATUS", 1))
seed("future-racing-resolves", config(4),
     resolve(0, 0, FULFIL), resolve(1, 0, REJECT), resolve(2, 0, CANCEL), resolve(3, 0, WITH_STATUS, 2),
     resolve(0, 0, FULFIL), resolve(1, 0, FULFIL), op(2, "STATUS", 0), op(3, "STATUS", 0))
seed("future-repeated-resolves", config(2),
     resolve(0, 2), resolve(0, 2, REJECT), resolve(0, 2, CANCEL), resolve(0, 2, WITH_STATUS, 1),
     resolve(1, 2), resolve(1, 2))
seed("future-invalid-status", config(2),
     resolve(0, 3, INVALID, 1), resolve(0, 3, INVALID, 2), subscribe(1, 3), resolve(1, 3, CANCEL))
seed("future-many-subscribers", config(3),
     *[subscribe(t, 0, node=(i % 3 == 2)) for i in range(10) for t in (0, 1)], resolve(2, 0))
seed("future-subscribe-during-resolve", config(4),
     *[subscribe(t, 1) for t in (0, 1, 2) for _ in range(6)], resolve(3, 1), subscribe(3, 1))
seed("future-wait-past-deadline", config(2),
     wait(0, 0, 0), subscribe(1, 0), wait(0, 0, 0), resolve(1, 0), wait(0, 0, 0), wait(1, 0, 3))
seed("future-wait-near-deadline", config(2),
     wait(0, 1, 1, 20), resolve(1, 1, CANCEL), wait(0, 1, 1, 60), op(0, "STATUS", 1))
seed("future-wait-invalid-deadline", config(2),
     wait(0, 2, 2, 1), wait(0, 2, 2, 2), resolve(1, 2), wait(1, 2, 2, 3))
seed("future-wait-forever-when-resolved", config(2),
     resolve(0, 3), wait(0, 3, 3), wait(1, 3, 1, 40), wait(1, 3, 3))
seed("future-status-and-payload", config(3),
     op(0, "STATUS", 0), resolve(1, 0, WITH_STATUS, 1), op(2, "STATUS", 0), op(0, "STATUS", 0))

# --- callbacks that act ----------------------------------------------------------------------
seed("callback-resolves-next-future", config(2),
     subscribe(0, 0, RESOLVE, FULFIL, target=1), subscribe(0, 1, RESOLVE, REJECT, target=2),
     subscribe(1, 2, RESOLVE, CANCEL, target=3), subscribe(1, 3), resolve(0, 0))
seed("callback-subscribes-from-inside", config(2),
     subscribe(0, 0, SUBSCRIBE, 0, target=1, arg=RESOLVE), subscribe(1, 0, SUBSCRIBE, 1, target=0),
     resolve(1, 1), resolve(0, 0))
seed("callback-reads-status", config(3),
     subscribe(0, 0, STATUS, target=1), subscribe(1, 1, STATUS, target=0), resolve(2, 1), resolve(2, 0))
seed("callback-resolves-a-cell", config(2),
     subscribe(0, 0, RESOLVE, 1, target=4), cell_subscribe(1, 0), cell_subscribe(1, 0, 2), resolve(0, 0))
seed("callbacks-cross-threads", config(4),
     subscribe(0, 0, RESOLVE, FULFIL, target=1), subscribe(1, 1, RESOLVE, REJECT, target=0),
     subscribe(2, 2, SUBSCRIBE, 0, target=3), subscribe(3, 3, RESOLVE, CANCEL, target=2),
     resolve(0, 0), resolve(1, 1), resolve(2, 2), resolve(3, 3))

# --- chains: deeper than the trampoline ------------------------------------------------------
for length, mode, node in ((1, 0, False), (16, 0, False), (17, 1, False), (33, 2, True), (40, 0, True), (40, 1, True)):
    seed(f"chain-{length}-mode{mode}{'-waiters' if node else ''}", config(2),
         chain(0, length, mode, node, RESOLVE, 1), subscribe(1, 1), op(1, "STATUS", 1))
seed("chains-racing-on-one-future", config(3),
     subscribe(2, 2), chain(0, 24, 1, False, RESOLVE, 2), chain(1, 24, 2, True, RESOLVE, 2), resolve(2, 2))

# --- a future freed as soon as it is seen resolved -------------------------------------------
# The owner subscribes, posts the future to a mailbox, another thread takes and resolves it,
# and the owner frees it (b = 0: polling the status; 1: waiting with deadlines; 2: waiting
# without one; +3: re-initialise and reuse it first) while the resolver may still deliver.
for finish in range(6):
    seed(f"free-after-resolved-{finish}", config(2),
         private_new(0, 1, 6, actions=0), op(1, "MAILBOX_TAKE", 1, FULFIL), op(0, "PRIVATE_FINISH", 0, finish))
seed("free-after-resolved-racing-take-back", config(3),
     private_new(0, 0, 4, how=1), op(1, "MAILBOX_TAKE", 0, REJECT), op(2, "MAILBOX_TAKE", 0, CANCEL),
     op(0, "PRIVATE_FINISH", 0, 0), private_new(0, 0, 2), op(0, "PRIVATE_FINISH", 0, 1))
seed("private-future-resolved-by-its-owner", config(2),
     private_new(0, 0, 3, actions=5), op(0, "PRIVATE_FINISH", 0, 2), op(1, "MAILBOX_TAKE", 0))

# --- raw cells: the protocol driven directly -------------------------------------------------
seed("cell-blocks-filled", config(3),
     *[cell_subscribe(t, 0, i % 2) for i in range(9) for t in (0, 1)], op(2, "CELL_CLAIM", 0, 1),
     op(2, "CELL_PUBLISH", 0, 1))
seed("cell-waiters-over-partial-blocks", config(2),
     cell_subscribe(0, 0), cell_subscribe(0, 0), cell_subscribe(0, 0, 2), cell_subscribe(1, 0),
     cell_subscribe(1, 0, 2), cell_subscribe(0, 0), op(1, "CELL_CLAIM", 0, 3), op(1, "CELL_PUBLISH", 0, 1))
seed("cell-straggler-inline", config(2),
     op(0, "CELL_RESERVE", 0), op(1, "CELL_CLAIM", 0, 2), op(1, "CELL_PUBLISH", 0, 1), op(0, "CELL_COMMIT", 0))
seed("cell-straggler-in-block", config(2),
     cell_subscribe(0, 1), cell_subscribe(0, 1), op(0, "CELL_RESERVE", 1), cell_subscribe(0, 1),
     op(1, "CELL_CLAIM", 1), op(1, "CELL_PUBLISH", 1, 1), op(0, "CELL_COMMIT", 1), op(0, "CELL_STATUS", 1))
seed("cell-late-subscribers-while-delivering", config(3),
     cell_subscribe(0, 0), op(0, "CELL_CLAIM", 0, 1), op(0, "CELL_PUBLISH", 0, 0),
     cell_subscribe(1, 0), cell_subscribe(2, 0, 2), op(1, "CELL_STATUS", 0), op(0, "CELL_DELIVER", 0),
     cell_subscribe(1, 0), op(0, "CELL_DELIVER", 0), op(0, "CELL_DELIVER", 0))
seed("cell-racing-claims", config(4),
     *[op(t, "CELL_CLAIM", 1, t) for t in range(4)], *[op(t, "CELL_PUBLISH", 1, t % 2) for t in range(4)],
     *[op(t, "CELL_STATUS", 1) for t in range(4)])
seed("cell-created-resolved", config(2, cell1_resolved=True, kind=3),
     cell_subscribe(0, 1), op(0, "CELL_RESERVE", 1), op(1, "CELL_CLAIM", 1), cell_subscribe(1, 1, 2),
     op(1, "CELL_STATUS", 1))
seed("cell-callbacks-resolve-futures", config(2),
     cell_subscribe(0, 0, 0, RESOLVE, 0), cell_subscribe(0, 0, 2, SUBSCRIBE, 1), subscribe(1, 0),
     op(1, "CELL_CLAIM", 0), op(1, "CELL_PUBLISH", 0, 1), resolve(1, 1))
seed("cell-held-everything-at-stream-end", config(2),
     op(0, "CELL_RESERVE", 0), op(0, "CELL_CLAIM", 1), cell_subscribe(1, 1), op(1, "CELL_RESERVE", 1),
     op(0, "CELL_PUBLISH", 1, 0))

# --- the trampoline driven directly ----------------------------------------------------------
for levels, where in ((1, 0), (4, 0b11111100), (16, 0b10000001), (17, 0b00000110), (24, 0b11111111)):
    seed(f"trampoline-{levels}-levels-{where:08b}", config(2), op(0, "TRAMPOLINE", levels - 1, where),
         op(1, "TRAMPOLINE", levels, where ^ 0xff))

# --- everything at once: reproducible random programs ----------------------------------------
rng = random.Random(20241123)
names = sorted(OPS, key=OPS.get)
for n in range(12):
    threads = 2 + n % 3
    program = [config(threads, cell1_resolved=n % 4 == 3, kind=rng.randrange(4))]
    for _ in range(rng.randrange(12, 60)):
        name = rng.choice(names)
        program.append(op(rng.randrange(threads), name, rng.randrange(256), rng.randrange(256), rng.randrange(256)))
    seed(f"random-{n:02d}", *program)

corpus = HERE / "corpus"
shutil.rmtree(corpus, ignore_errors=True)
corpus.mkdir()
for name, data in sorted(SEEDS.items()):
    (corpus / name).write_bytes(data)

# One whole instruction per opcode (thread 0, arguments 0): libFuzzer splices them in.
with open(HERE / "petal.dict", "w") as dictionary:
    dictionary.write("# petal_fuzz instructions, one per opcode (written by make-corpus.py)\n")
    for name in names:
        text = "".join(f"\\x{byte:02x}" for byte in op(0, name))
        dictionary.write(f'op_{name.lower()}="{text}"\n')

print(f"wrote {len(SEEDS)} seeds to {corpus.relative_to(HERE.parent.parent)} and petal.dict")
