import CBenchSupport
import Foundation

// Each workload's round: what its set-up builds, what its measurement runs on the workers, and
// the exact count its tear-down checks.

extension Workload {
    /// Builds one round of `self` for contender `C` on `threads` threads.
    public func round<C: Contender>(for _: C.Type, threads: Int) -> Round {
        let workers = WorkerPool.shared(threads: threads)
        let round = unwokenRound(for: C.self, pool: ContenderPool<C>(workers), threads: threads)
        return measuresWorkers ? round.wakingFirst(workers) : round
    }

    /// Whether the measured phase runs jobs on the worker pool (the drain is one thread's
    /// fulfil; the chain across NIO runs on the event loop).
    private var measuresWorkers: Bool {
        switch self {
        case .hotDrain, .hotDrainCapturing, .hotDrainCapturingThree, .chainAcrossNIO4: false
        default: true
        }
    }

    private func unwokenRound<C: Contender>(for _: C.Type, pool: ContenderPool<C>, threads: Int) -> Round {
        switch self {
        case .createSubscribeFulfil, .subscribeAfterFulfil:
            let perThread = 512
            let after = self == .subscribeAfterFulfil
            return Round(operations: perThread * threads) {
                Delivered.reset()
                pool.run { _ in
                    let callback: @Sendable (Int) -> Void = { _ in bench_count_add() }
                    for value in 0..<perThread {
                        let handle = C.make()
                        // Real promises escape (to the producer's thread); without this the
                        // optimiser may put a handle on the stack for some contenders only.
                        C.escape(handle)
                        if after {
                            C.fulfil(handle, with: value)
                            C.subscribe(handle, callback)
                        } else {
                            C.subscribeCounting(handle)
                            C.fulfil(handle, with: value)
                        }
                        if !C.deliversAsynchronously { C.release(handle) }
                    }
                }
                awaitDelivered(C.self, perThread * threads)
            }

        case .createSubscribeFulfilCapturing, .createSubscribeFulfilCapturingThree:
            let perThread = 512
            let three = capture == .threeValues
            let subscribers = RoundState<Shared<[[Subscriber]]>>()
            return Round(
                operations: perThread * threads,
                setUp: {
                    Delivered.reset()
                    subscribers.value = Shared(Subscriber.make(threads: threads, perThread: perThread) { $0 })
                },
                measure: {
                    pool.run { index in
                        // Sound: each worker reads its own row; the subscribers are Sendable.
                        let mine = subscribers.value!.value[index]
                        for value in 0..<perThread {
                            let handle = C.make()
                            C.escape(handle)
                            if three {
                                C.subscribeCapturingThree(handle, mine[value], index: value, tag: RequestTag(value))
                            } else {
                                C.subscribeCapturing(handle, mine[value])
                            }
                            C.fulfil(handle, with: value)
                            if !C.deliversAsynchronously { C.release(handle) }
                        }
                    }
                    awaitDelivered(C.self, perThread * threads)
                },
                tearDown: { subscribers.value = nil }
            )

        case .hotAttach, .hotAttachCapturing, .hotAttachCapturingThree:
            // 512 a thread, as create+subscribe+fulfil: with 64, a round at T = 4 (3-5 us of
            // attaching) was shorter than four threads on two cores take to pass the start line
            // (9.5 us), and every fast contender measured the same 62-88k rounds a second.
            let perThread = 512
            let capture = capture
            let hot = RoundState<Shared<(C.Handle, [[Subscriber]])>>()
            return Round(
                operations: perThread * threads,
                setUp: {
                    Delivered.reset()
                    let subscribers = Subscriber.forHotPromise(capture, threads: threads, perThread: perThread)
                    hot.value = Shared((C.make(), subscribers))
                },
                measure: {
                    pool.run { index in
                        // Sound: the contenders' handles are thread-safe promise objects.
                        let (handle, subscribers) = hot.value!.value
                        pool.startTogether()
                        C.subscribe(handle, perThread, capture, capture == .nothing ? [] : subscribers[index])
                    }
                },
                tearDown: {
                    let handle = hot.value!.value.0
                    C.fulfil(handle, with: 1)
                    awaitDelivered(C.self, perThread * threads)
                    C.release(handle)
                    hot.value = nil
                }
            )

        case .hotDrain, .hotDrainCapturing, .hotDrainCapturingThree:
            let perThread = 64
            let capture = capture
            let hot = RoundState<Shared<(C.Handle, [[Subscriber]])>>()
            return Round(
                operations: perThread * threads,
                setUp: {
                    Delivered.reset()
                    let handle = C.make()
                    let subscribers = Subscriber.forHotPromise(capture, threads: threads, perThread: perThread)
                    let shared = Shared((handle, subscribers))
                    pool.run { index in
                        C.subscribe(
                            shared.value.0, perThread, capture, capture == .nothing ? [] : shared.value.1[index])
                    }
                    if C.deliversAsynchronously { C.settle(handle, subscriptions: perThread * threads) }
                    hot.value = shared
                },
                measure: {
                    C.fulfil(hot.value!.value.0, with: 1)
                    awaitDelivered(C.self, perThread * threads)
                },
                tearDown: {
                    C.release(hot.value!.value.0)
                    hot.value = nil
                }
            )

        case .subscribeRacingFulfil:
            let perThread = 64
            let promises = 8
            return Round(operations: promises * (perThread * (threads - 1) + 1)) {
                Delivered.reset()
                let handles = Shared((0..<promises).map { _ in C.make() })
                pool.run { index in
                    pool.startTogether()
                    for handle in handles.value {
                        if index == 0 {
                            C.fulfil(handle, with: 1)
                        } else {
                            for _ in 0..<perThread { C.subscribeCounting(handle) }
                        }
                    }
                }
                awaitDelivered(C.self, promises * perThread * (threads - 1))
                handles.value.forEach(C.release)
            }

        case .subscribeRacingFulfilCapturing, .subscribeRacingFulfilCapturingThree:
            let perThread = 64
            let three = capture == .threeValues
            let promises = 8
            let subscribers = RoundState<Shared<[[Subscriber]]>>()
            return Round(
                operations: promises * (perThread * (threads - 1) + 1),
                setUp: {
                    Delivered.reset()
                    // Row `index - 1` for subscribing thread `index`, `perThread` a promise.
                    subscribers.value = Shared(
                        Subscriber.make(threads: threads - 1, perThread: promises * perThread) { _ in 1 })
                },
                measure: {
                    // As the counting workload: the promises are made and freed in the round.
                    let handles = Shared((0..<promises).map { _ in C.make() })
                    pool.run { index in
                        let rows = subscribers.value!.value
                        pool.startTogether()
                        for (promise, handle) in handles.value.enumerated() {
                            if index == 0 {
                                C.fulfil(handle, with: 1)
                            } else {
                                let mine = rows[index - 1]
                                let ks = (promise * perThread)..<((promise + 1) * perThread)
                                if three {
                                    for k in ks {
                                        C.subscribeCapturingThree(handle, mine[k], index: k, tag: RequestTag(k))
                                    }
                                } else {
                                    for k in ks { C.subscribeCapturing(handle, mine[k]) }
                                }
                            }
                        }
                    }
                    awaitDelivered(C.self, promises * perThread * (threads - 1))
                    handles.value.forEach(C.release)
                },
                tearDown: { subscribers.value = nil }
            )

        case .fulfilRace:
            let promises = 256
            return Round(operations: promises * threads) {
                let handles = Shared((0..<promises).map { _ in C.make() })
                let winners = Shared(UnsafeMutableBufferPointer<Int>.allocate(capacity: threads))
                pool.run { index in
                    pool.startTogether()
                    var won = 0
                    for handle in handles.value where C.fulfil(handle, with: index) { won += 1 }
                    winners.value[index] = won
                }
                verify(winners.value.reduce(0, +) == promises, "\(C.name): not exactly one winner per promise")
                winners.value.deallocate()
                handles.value.forEach(C.release)
            }

        case .sharedPromises:
            let promises = 256
            return Round(operations: promises * threads) {
                Delivered.reset()
                let handles = Shared((0..<promises).map { _ in C.make() })
                let subscribed = Shared(UnsafeMutableBufferPointer<Int>.allocate(capacity: threads))
                pool.run { index in
                    pool.startTogether()
                    var subscriptions = 0
                    // Each thread walks the promises from its own offset; half its steps fulfil.
                    for step in 0..<promises {
                        let handle = handles.value[(step + index * 37) % promises]
                        if (step + index).isMultiple(of: 2) {
                            C.fulfil(handle, with: step)
                        } else {
                            C.subscribeCounting(handle)
                            subscriptions += 1
                        }
                    }
                    subscribed.value[index] = subscriptions
                }
                // Every promise must resolve so every subscription is owed its callback.
                for handle in handles.value { C.fulfil(handle, with: -1) }
                awaitDelivered(C.self, subscribed.value.reduce(0, +))
                subscribed.value.deallocate()
                handles.value.forEach(C.release)
            }

        case .privatePairs:
            let perPair = 256
            let pairs = max(1, threads / 2)
            return Round(operations: perPair * pairs * 2) {
                Delivered.reset()
                let handles = Shared((0..<pairs).map { _ in (0..<perPair).map { _ in C.make() } })
                pool.run { index in
                    let pair = min(index / 2, pairs - 1)
                    let mine = handles.value[pair]
                    pool.startTogether()
                    if threads == 1 {
                        for handle in mine {
                            C.subscribeCounting(handle)
                            C.fulfil(handle, with: 1)
                        }
                    } else if index >= pairs * 2 {
                        return  // an odd thread out has no partner
                    } else if index.isMultiple(of: 2) {
                        for handle in mine { C.fulfil(handle, with: 1) }
                    } else {
                        for handle in mine { C.subscribeCounting(handle) }
                    }
                }
                awaitDelivered(C.self, perPair * pairs)
                handles.value.forEach { $0.forEach(C.release) }
            }

        case .pingPong:
            let exchanges = 256
            return Round(operations: 2 * exchanges) {
                Delivered.reset()
                // Sound: the contenders' handles are thread-safe promise objects.
                let pings = Shared((0..<exchanges).map { _ in C.make() })
                let pongs = Shared((0..<exchanges).map { _ in C.make() })
                for index in 0..<exchanges {
                    C.subscribeCounting(pings.value[index])
                    C.subscribeCounting(pongs.value[index])
                }
                pool.run { index in
                    pool.startTogether()
                    for exchange in 0..<exchanges {
                        if index == 0 {
                            C.fulfil(pings.value[exchange], with: exchange)
                            while Delivered.count < 2 * exchange + 2 { sched_yield() }
                        } else {
                            while Delivered.count < 2 * exchange + 1 { sched_yield() }
                            C.fulfil(pongs.value[exchange], with: exchange)
                        }
                    }
                }
                awaitDelivered(C.self, 2 * exchanges)
                pings.value.forEach(C.release)
                pongs.value.forEach(C.release)
            }

        case .chain1, .chain4, .chain100:
            let links = self == .chain1 ? 1 : self == .chain4 ? 4 : 100
            let chainsPerThread = max(1, 400 / links)
            return Round(operations: links * chainsPerThread * threads) {
                Delivered.reset()
                pool.run { _ in
                    for _ in 0..<chainsPerThread { C.runChain(links: links, value: 7) }
                }
                awaitDelivered(C.self, chainsPerThread * threads)
            }

        case .chainAcrossNIO4:
            let links = 4
            let chains = 100
            return Round(operations: links * chains) {
                Delivered.reset()
                // One task on the loop per round, the same for every contender, so the figures
                // compare the chains themselves.
                onLoop {
                    for _ in 0..<chains { C.runChainAcrossNIO(links: links, value: 7) }
                }
                awaitDelivered(C.self, chains)
            }
        }
    }
}

/// Waits for asynchronous contenders to deliver; checks the exact count for everyone.
func awaitDelivered<C: Contender>(_: C.Type, _ expected: Int) {
    if C.deliversAsynchronously {
        while Delivered.count < expected { sched_yield() }
    }
    verify(Delivered.count == expected, "\(C.name): \(Delivered.count) callbacks delivered, expected \(expected)")
}
