#if ServiceLifecycle
    import Petal

    /// One request tracked by a ``RequestDrain``: linked into its stripe while its future is
    /// pending, and asked to stop on graceful shutdown.
    ///
    /// Why an object per request, and not a closure in a dictionary: one allocation holds the
    /// future, the links and the stripe, and is the whole context of the callback that unlinks
    /// it (a closure that captures one object allocates no context of its own); unlinking is
    /// O(1), with no hashing and no table to grow.
    class TrackedRequest: @unchecked Sendable {
        // @unchecked: `next` and `previous` are read and written only with `stripe`'s lock held;
        // the rest is immutable.

        /// The stripe this request is linked into.
        let stripe: PosixLock<DrainStripe>
        /// The next request of the stripe's list (older ones follow newer ones), or `nil`.
        var next: TrackedRequest?
        /// The previous one, or `nil` at the head. Unowned(unsafe): the list holds each request
        /// strongly, through the head and `next`, until it is unlinked under the lock, and then
        /// this is cleared.
        unowned(unsafe) var previous: TrackedRequest?

        init(stripe: PosixLock<DrainStripe>) {
            self.stripe = stripe
        }

        /// Asks the request's future to stop.
        func stop() {}

        /// The future resolved: unlinks this request, and tells the drain if that emptied a
        /// stripe it waits for.
        func resolved() {
            let progress = stripe.withLock { stripe -> DrainProgress? in
                stripe.unlink(self)
                return stripe.isDraining && stripe.count == 0 ? stripe.progress : nil
            }
            progress?.finishedOne()
        }
    }

    /// A tracked request whose future has values of type `Value`.
    final class TrackedFuture<Value: Sendable>: TrackedRequest, @unchecked Sendable {
        let future: Future<Value>

        init(_ future: Future<Value>, stripe: PosixLock<DrainStripe>) {
            self.future = future
            super.init(stripe: stripe)
        }

        override func stop() {
            future.requestCancellation()
        }
    }
#endif
