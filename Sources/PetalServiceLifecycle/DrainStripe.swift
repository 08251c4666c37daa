#if ServiceLifecycle
    import Petal

    /// A share of a ``RequestDrain``'s requests, behind a lock of its own.
    ///
    /// Why stripes: every request is tracked on the thread that handles it and untracked on the
    /// thread that resolves its future, so one lock for the whole drain is taken twice a request
    /// by every thread of the server, and its memory moves between their cores each time. A
    /// request is tracked in the stripe of the thread that tracks it
    /// (`RequestDrain.stripeOfThisThread`), so threads that track at once rarely share one.
    struct DrainStripe {
        /// The drain's count of what it waits for, once it runs.
        let progress: DrainProgress
        /// The newest pending request; the others follow through `next`.
        var head: TrackedRequest?
        /// The requests linked from `head`.
        var count = 0
        /// Whether the drain has begun here: requests linked from now on are asked at once, and
        /// the stripe's becoming empty counts towards the drain's end.
        var isDraining = false

        /// Links `request` at the head.
        mutating func link(_ request: TrackedRequest) {
            request.next = head
            head?.previous = request
            head = request
            count += 1
        }

        /// Unlinks `request`, which is linked here.
        mutating func unlink(_ request: TrackedRequest) {
            if let previous = request.previous {
                previous.next = request.next
            } else {
                head = request.next
            }
            request.next?.previous = request.previous
            request.next = nil
            request.previous = nil
            count -= 1
        }

        init(progress: DrainProgress) {
            self.progress = progress
        }

        /// Every request linked here, newest first.
        var requests: [TrackedRequest] {
            var all: [TrackedRequest] = []
            all.reserveCapacity(count)
            var next = head
            while let request = next {
                all.append(request)
                next = request.next
            }
            return all
        }
    }
#endif
