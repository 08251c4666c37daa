/// Chaining jobs: start a ``Job`` with the receiver's value, following the one failure rule.
///
/// Each method takes the context the job is started on (`.inline` by default: the thread that
/// fulfils the receiver, or this thread if it is already fulfilled) and an optional
/// ``CancellationPool`` the job is added to at once. If the receiver is rejected or cancelled,
/// the job is never started: it is cancelled, with the receiver's error as its indirect error,
/// so its future is cancelled as the rule says for everything downstream of a failure.
///
/// A cancellation request on the returned future asks the job (``Job/attemptCancel()``), and,
/// if the receiver's producer can be asked too, counts as one vote on the receiver (see
/// <doc:Cancellation>).
extension Future {
    /// Starts `job` with the value once the receiver is fulfilled, and returns the job's future.
    ///
    /// - Where and when: `job.start(with:)` runs once on `context`, after the receiver is
    ///   fulfilled; never if it is rejected or cancelled.
    /// - Returns: the job's future: fulfilled when the job completes, rejected when it fails,
    ///   cancelled when it is cancelled, including, with the receiver's error as the indirect
    ///   error, when the receiver is rejected or cancelled.
    public func then<Output, Context: ExecutionContext>(
        _ job: Job<Value, Output>, on context: Context = .inline, pool: CancellationPool? = nil
    ) -> Future<Output> {
        pool?.add(job)
        if storage.propagatesRequests { storage.linkDependent(job.future.storage) }
        storage.subscribe(
            .step { upstream, kind in
                guard kind == .fulfilled else {
                    job.cancel(withIndirectError: upstream.observedError)
                    return
                }
                job.launch(with: upstream.value, on: context)
            })
        return job.future
    }

    /// Starts every job of `jobs` with the value once the receiver is fulfilled, and returns a
    /// future of all their outputs.
    ///
    /// - Where and when: each job's `start(with:)` runs once on `context`, in array order, after
    ///   the receiver is fulfilled; never if it is rejected or cancelled.
    /// - Returns: a future fulfilled with the outputs in the order of `jobs` once every job
    ///   completed; cancelled as soon as one job fails or is cancelled, with that job's error as
    ///   the indirect error (which also asks the other jobs to cancel, as
    ///   `Future.start(running:with:on:pool:)` says); cancelled, with the receiver's
    ///   error as the indirect error, when the receiver is rejected or cancelled (every job is
    ///   then cancelled with it too).
    public func then<Output, Context: ExecutionContext>(
        _ jobs: [Job<Value, Output>], on context: Context = .inline, pool: CancellationPool? = nil
    ) -> Future<[Output]> {
        let group = Job.group(jobs, pool: pool)
        if storage.propagatesRequests { storage.linkDependent(group.storage) }
        storage.subscribe(
            .step { upstream, kind in
                guard kind == .fulfilled else {
                    // Every job cancelled before any future is: cancelling the first job's
                    // future decides the group, whose votes would otherwise cancel the rest
                    // without the error before this loop reached them.
                    let error = upstream.observedError
                    let cancelled = jobs.filter { $0.beginCancellation(withIndirectError: error) }
                    for job in cancelled { job.finishCancellation(withIndirectError: error) }
                    return
                }
                for job in jobs { job.launch(with: upstream.value, on: context) }
            })
        return group
    }

    /// Starts `job` with the value once the receiver is fulfilled, and pairs the value with the
    /// job's output.
    ///
    /// - Where and when: `job.start(with:)` runs once on `context`, after the receiver is
    ///   fulfilled; never if it is rejected or cancelled.
    /// - Returns: a future fulfilled with `(value, output)` when the job completes; rejected
    ///   with the job's error when it fails (the job is this step's own work); cancelled with
    ///   the job's indirect error when it is cancelled; cancelled, with the receiver's error as
    ///   the indirect error, when the receiver is rejected or cancelled.
    public func additionally<Output, Context: ExecutionContext>(
        _ job: Job<Value, Output>, on context: Context = .inline, pool: CancellationPool? = nil
    ) -> Future<(Value, Output)> {
        let jobFuture = then(job, on: context, pool: pool)
        let paired = FutureStorage<(Value, Output)>.makePending()
        jobFuture.storage.linkDependent(paired)
        // The job starts only after the receiver is fulfilled, so the receiver's value is there
        // to read when the job completes; the receiver is immutable by then.
        let receiver = UncheckedSendableBox(storage)
        let target = UncheckedSendableBox(paired)
        jobFuture.storage.subscribe(
            .resolved { outcome in
                switch outcome {
                case .fulfilled(let output): target.value.fulfil(with: (receiver.value.value, output))
                case .rejected(let error): target.value.fail(.rejected, error: error)
                case .cancelled(let indirectError): target.value.fail(.cancelled, error: indirectError)
                }
            })
        return Future<(Value, Output)>(storage: paired)
    }

    /// Starts `job` once the receiver resolves, however it resolves, as clean-up that always
    /// runs.
    ///
    /// - Where and when: `job.start(with: ())` runs once on `context`, after the receiver is
    ///   fulfilled, rejected or cancelled.
    /// - Returns: a future resolved once the job finishes: fulfilled with the receiver's value
    ///   when both succeeded; cancelled, with the receiver's error as the indirect error, when
    ///   the receiver is rejected or cancelled (the failure keeps travelling down the chain);
    ///   otherwise rejected with the job's error if it fails, or cancelled with its indirect
    ///   error if it is cancelled.
    @discardableResult
    public func always<Context: ExecutionContext>(
        _ job: Job<Void, Void>, on context: Context = .inline, pool: CancellationPool? = nil
    ) -> Future<Value> {
        pool?.add(job)
        let result = FutureStorage<Value>.makePending()
        job.future.storage.linkDependent(result)
        let target = UncheckedSendableBox(result)
        storage.subscribe(
            .step { upstream, kind in
                // The receiver is resolved and immutable; only this callback resolves `result`.
                let receiver = UncheckedSendableBox((upstream, kind))
                job.future.storage.subscribe(
                    .resolved { jobOutcome in
                        switch jobOutcome {
                        case .fulfilled:
                            target.value.resolve(passingOn: receiver.value.0, kind: receiver.value.1)
                        case .rejected(let error):
                            target.value.fail(.rejected, error: error)
                        case .cancelled(let indirectError):
                            target.value.fail(.cancelled, error: indirectError)
                        }
                    })
                job.launch(with: (), on: context)
            })
        return Future(storage: result)
    }
}
