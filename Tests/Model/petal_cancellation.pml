/*
 * petal_cancellation.pml - a future's cancellation record (Sources/Petal/Cancellation/
 * CancellationRecord.swift, FutureStorage+Cancellation.swift, and the resolution's side in
 * FutureStorage+Resolving.swift `publish`).
 *
 * One promise's future, and what races on it:
 *   Owner      the promise's owner registers its stop (addProducerStop): with the slot empty, a
 *              new record holding the stop as action zero is installed by one compare-and-swap,
 *              then the cell is loaded and, resolved, the record's actions are released; with
 *              a record there already, the stop is a node pushed on the action list.
 *   Watcher    someone registers an action (addCancellationAction): installs a record if there
 *              is none (a loser's record is freed unpublished), pushes a node, then loads the
 *              cell and, resolved, releases the actions.
 *   Requester  requestCancellation: unless resolved, installs a record, sets REQUESTED (once),
 *              and the winner answers: closes the list for the request, takes action zero and
 *              the nodes, cancels the future (the stop runs only if that cancellation won the
 *              cell), then runs the nodes.
 *   Voter      DEPS counted dependents (linkDependent: only while the word propagates, and not
 *              once requested), each voting later (receiveVote); the vote that reaches the
 *              count requests and answers as the Requester does.
 *   Resolver   fulfils the promise: claims and publishes the cell (one FULL compare-and-swap),
 *              then loads the slot and, with a record, closes the list for the resolution and
 *              releases what it took unrun. A cancellation's publish does the same.
 *
 * The store-load handshakes. Action zero is published by the slot's compare-and-swap and then
 * the cell is loaded; the resolution publishes the cell and then loads the slot. Each side is a
 * FULL compare-and-swap followed by a load of the other's word, so one of the two sees the
 * other. Spin is sequentially consistent, so the weakening is modelled as what a store buffer
 * allows: with a release compare-and-swap the store waits in the thread's store buffer while
 * its next load is served from memory, which is the load overtaking the store. Seeded bugs
 * STOP_RELEASE_STORE and PUBLISH_RELEASE_STORE let that side's load run before its store
 * (the compare-and-swap itself stays atomic at the moment it drains, as it is on the hardware).
 * The node push and its resolution check have the same shape; it is kept FULL here.
 *
 * Checked: every action registered (action zero or a node) ends run or released, exactly once,
 * never both; an action runs only after a request closed the list; the stop runs only if the
 * request's cancellation won the cell (never after the promise was fulfilled); one request
 * answer at most; votes never above the dependents counted; at the end, with the future
 * resolved, no action is left attached (a stop holding its promise would be a cycle: a leak).
 *
 * Two shapes of the code are these moves made at once, on a record nobody else can see before
 * its compare-and-swap: a record installed for a dependent counts it already (installRecord's
 * `counting:`, the install and the count in one step), and a chained future's vote on the
 * future it depends on is its record's action zero (installRecord(voting:replacing:), the
 * Owner's install, without a stop's cancellation: the vote always runs). A chained future's
 * slot may start as MAY_PASS instead of 0 (it may pass requests on before it has a record):
 * the install's compare-and-swap then replaces that, as it replaces 0 here.
 *
 * Seeded bugs (must fail): STOP_RELEASE_STORE, PUBLISH_RELEASE_STORE (above); NO_RESOLVED_CHECK
 * (a pushed node is not followed by the resolution check); STOP_WITHOUT_WIN (the stop runs
 * whether or not the cancellation won); CLOSE_IGNORES_CLOSED (a close does not check for a
 * sentinel); REQUEST_TWICE (a direct request does not check REQUESTED, so it answers after a
 * vote's request did).
 */
/* The Swift functions that move the record's words, each a driver whose steps (one per
   compare-and-swap, in the function's order, each naming the word it moves) mark the model's
   moves (Scripts/check-model-conformance checks the order, and that no other function moves
   them).
   @driver install
     Swift FutureStorage.installRecord(producerState:counting:)
   @driver producer_stop
     Swift FutureStorage.addProducerStop(_:)
     Swift FutureStorage.installRecord(voting:replacing:)
   @driver update_request
     Swift CancellationRecord.updateRequest(_:)
   @driver mark_propagating
     Swift FutureStorage.markPropagating()
   @driver add_dependent
     Swift FutureStorage.addDependent()
   @driver request
     Swift FutureStorage.requestCancellation()
   @driver vote
     Swift FutureStorage.receiveVote()
   @driver add
     Swift CancellationRecord.add(_:resolutionBegun:)
   @driver close
     Swift CancellationRecord.close(with:)
*/
#ifndef DEPS
#define DEPS 1
#endif
/* The handshake is between the owner and the resolution: a Watcher's later push, followed by
   its own resolution check, would release a stop both of them left behind, and hide the loss. */
#if defined(STOP_RELEASE_STORE) || defined(PUBLISH_RELEASE_STORE)
#define NO_WATCHER
#endif
#ifdef NO_WATCHER
#define WATCHERS 0
#else
#define WATCHERS 1
#endif

#define PENDING 0
#define FULFILLED 1
#define CANCELLED 2
byte cell = PENDING;

/* The slot: 0, or the installed record (1 the owner's, with action zero; 2 another's). */
byte slot = 0;

/* The installed record's request word, moved as one word (each move one atomic block). */
bit propagates = 0;
bit requested = 0;
byte votes = 0;
byte dependents = 0;

/* The action list: open, or closed by a request or by the resolution, and which nodes are on
   it (the stack's order does not matter to these properties). */
#define OPEN 0
#define BY_REQUEST 1
#define BY_RESOLUTION 2
byte list = OPEN;
#define STOP 0       /* action zero, kept in the record */
#define STOP_NODE 1  /* the owner's stop as a node (a record was there first) */
#define WATCHED 2    /* the Watcher's node */
#define ACTIONS 3
bit on_list[ACTIONS];
bit stop_in_record = 0;

/* Each action: 0 never registered, 1 registered, 2 run, 3 released. */
#define REGISTERED 1
#define RAN 2
#define RELEASED 3
byte state[ACTIONS];

byte answers = 0;
byte finished = 0;
#define PROCS (3 + WATCHERS + DEPS)

inline run_action(a) {
    atomic {
        assert(state[a] == REGISTERED && list == BY_REQUEST);
        state[a] = RAN
    }
}

/* A promise's stop: it stops work that has not answered, so never after the promise was
   fulfilled. */
inline run_stop(a) {
    atomic {
        assert(cell == CANCELLED);
        assert(state[a] == REGISTERED && list == BY_REQUEST);
        state[a] = RAN
    }
}

inline release_action(a) {
    atomic {
        assert(state[a] == REGISTERED);
        state[a] = RELEASED
    }
}

/* close(sentinel): exchanges the list for the sentinel unless closed already; the closer takes
   the nodes (into taken[]) and action zero. */
inline close_list(sentinel, won) {
    atomic {  /* @step close: actionsWord */
#ifdef CLOSE_IGNORES_CLOSED
        if
        :: true ->
#else
        if
        :: list == OPEN ->
#endif
            list = sentinel; won = 1;
            taken[STOP] = stop_in_record; stop_in_record = 0;
            taken[STOP_NODE] = on_list[STOP_NODE]; on_list[STOP_NODE] = 0;
            taken[WATCHED] = on_list[WATCHED]; on_list[WATCHED] = 0
        :: else -> won = 0
        fi
    }
}

/* releaseActions: the resolution's close; what it took is released unrun. */
inline release_actions() {
    close_list(BY_RESOLUTION, closed);
    if
    :: closed ->
        if :: taken[STOP] -> taken[STOP] = 0; release_action(STOP) :: else -> skip fi;
        if :: taken[STOP_NODE] -> taken[STOP_NODE] = 0; release_action(STOP_NODE) :: else -> skip fi;
        if :: taken[WATCHED] -> taken[WATCHED] = 0; release_action(WATCHED) :: else -> skip fi
    :: else -> skip
    fi
}

/* A publish of the cell (after a won claim): then the slot is loaded and, with a record, the
   actions are released. `early` is the slot as loaded before the publish (the seeded bug). */
inline after_publish(early) {
#ifdef PUBLISH_RELEASE_STORE
    seen_slot = early;
#else
    seen_slot = slot;
#endif
    if :: seen_slot != 0 -> release_actions() :: else -> skip fi
}

/* installRecord for someone without action zero: the loser's record is never seen. */
inline install_plain() {
    atomic { if :: slot == 0 -> slot = 2 :: else -> skip fi }  /* @step install: cancellationSlot */
}

/* add(node): pushed unless closed (run at once if by a request, released if by the resolution),
   then, if the future is resolved, the actions are released (`isResolved` after the push). */
inline add_node(a) {
    pushed = 0;
    atomic {  /* @step add: actionsWord */
        state[a] = REGISTERED;
        if
        :: list == OPEN -> on_list[a] = 1; pushed = 1
        :: list == BY_REQUEST -> skip
        :: list == BY_RESOLUTION -> skip
        fi
    };
    if
    :: pushed ->
#ifndef NO_RESOLVED_CHECK
        if :: cell != PENDING -> release_actions() :: else -> skip fi
#else
        skip
#endif
    :: !pushed && list == BY_REQUEST -> run_action(a)
    :: !pushed && list == BY_RESOLUTION -> release_action(a)
    fi
}

/* The answer of the request's winner (answerCancellationRequest, runActions). */
inline answer() {
    atomic { answers++; assert(answers == 1) };
    close_list(BY_REQUEST, closed);
    if
    :: closed ->
        if
        :: taken[STOP] ->
            taken[STOP] = 0;
            /* stopsProducer: the future is cancelled; the stop runs only if that won */
            early = slot;
            atomic { if :: cell == PENDING -> cell = CANCELLED; won_cell = 1 :: else -> won_cell = 0 fi };
            if :: won_cell -> after_publish(early) :: else -> skip fi;
#ifdef STOP_WITHOUT_WIN
            run_stop(STOP)
#else
            if
            :: won_cell -> run_stop(STOP)
            :: else -> release_action(STOP)
            fi
#endif
        :: else -> skip
        fi;
        /* the nodes, oldest first; the owner's stop node cancels the future first too */
        if
        :: taken[STOP_NODE] ->
            taken[STOP_NODE] = 0;
            early = slot;
            atomic { if :: cell == PENDING -> cell = CANCELLED; won_cell = 1 :: else -> won_cell = 0 fi };
            if :: won_cell -> after_publish(early) :: else -> skip fi;
            if
            :: won_cell -> run_stop(STOP_NODE)
            :: else -> release_action(STOP_NODE)
            fi
        :: else -> skip
        fi;
        if :: taken[WATCHED] -> taken[WATCHED] = 0; run_action(WATCHED) :: else -> skip fi
    :: else -> skip
    fi
}

inline finish() {
    atomic { finished++ }
}

proctype Owner() {
    bit taken[ACTIONS];
    bit closed, pushed, won_cell;
    byte seen_cell, seen_slot, early;
    if
    :: slot == 0 ->
#ifdef STOP_RELEASE_STORE
        seen_cell = cell;  /* the load overtakes the buffered compare-and-swap */
#endif
        atomic {  /* @step producer_stop: cancellationSlot */
            if
            :: slot == 0 ->
                slot = 1; propagates = 1; stop_in_record = 1; state[STOP] = REGISTERED; won_cell = 1
            :: else -> won_cell = 0
            fi
        };
        if
        :: won_cell ->
#ifndef STOP_RELEASE_STORE
            seen_cell = cell;
#endif
            if :: seen_cell != PENDING -> release_actions() :: else -> skip fi;
            goto done
        :: else -> skip
        fi
    :: else -> skip
    fi;
    /* a record was there: markPropagating, then the stop as a node */
    atomic { propagates = 1 };  /* @step mark_propagating: requestWord */
    add_node(STOP_NODE);
done:
    finish()
}

proctype Watcher() {
    bit taken[ACTIONS];
    bit closed, pushed, won_cell;
    byte seen_slot, early;
    install_plain();
    add_node(WATCHED);
    finish()
}

proctype Requester() {
    bit taken[ACTIONS];
    bit closed, pushed, won_cell, mine;
    byte seen_slot, early;
    if
    :: cell == PENDING ->
        install_plain();
#ifdef REQUEST_TWICE
        atomic { requested = 1; mine = 1 };
#else
        /* @step request: requestWord (through updateRequest, whose @step update_request: requestWord
           is this compare-and-swap, as every move of the request word) */
        atomic { if :: !requested -> requested = 1; mine = 1 :: else -> mine = 0 fi };
#endif
        if :: mine -> answer() :: else -> skip fi
    :: else -> skip
    fi;
    finish()
}

proctype Voter() {
    bit taken[ACTIONS];
    bit closed, pushed, won_cell, counted, mine;
    byte seen_slot, early;
    /* linkDependent: counted only while the future propagates and no request arrived */
    atomic {  /* @step add_dependent: requestWord */
        if
        :: slot != 0 && propagates && !requested -> dependents++; counted = 1
        :: else -> counted = 0
        fi
    };
    if
    :: counted && cell == PENDING && slot != 0 ->
        atomic {  /* @step vote: requestWord */
            if
            :: !requested && votes + 1 <= dependents ->
                votes++;
                if :: votes == dependents -> requested = 1; mine = 1 :: else -> mine = 0 fi
            :: else -> mine = 0
            fi
        };
        if :: mine -> answer() :: else -> skip fi
    :: else -> skip
    fi;
    finish()
}

proctype Resolver() {
    bit taken[ACTIONS];
    bit closed, won_cell;
    byte seen_slot, early;
#ifdef PUBLISH_RELEASE_STORE
    early = slot;  /* the load overtakes the buffered compare-and-swap */
#endif
    atomic { if :: cell == PENDING -> cell = FULFILLED; won_cell = 1 :: else -> won_cell = 0 fi };
    if :: won_cell -> after_publish(early) :: else -> skip fi;
    finish()
}

init {
    atomic {
        run Owner();
#ifndef NO_WATCHER
        run Watcher();
#endif
        run Requester();
        run Resolver();
        byte i = 0;
        do
        :: i < DEPS -> run Voter(); i++
        :: else -> break
        od
    };
    finished == PROCS;
    /* The future is resolved, and nothing is left attached to it. */
    assert(cell != PENDING);
    assert(state[STOP] != REGISTERED && state[STOP_NODE] != REGISTERED && state[WATCHED] != REGISTERED);
    assert(votes <= dependents && answers <= 1)
}
