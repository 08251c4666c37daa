import CBenchSupport
import Contenders
import Petal

/// A chain whose steps capture what a service's steps do (an object, an integer and a value of
/// the request), so that each `then` closure has a context of its own: an operation is one step,
/// 100 to a chain (the suite's chain captures nothing).
enum CapturingChain {
    static func run(_ count: Int) {
        let subscriber = Subscriber(expecting: -1)  // stores each value, counts none
        for chain in 0..<count / 100 {
            let head = Promise<Int>()
            var tail = head.future
            for link in 0..<100 {
                let tag = RequestTag(link)
                tail = tail.then { value in
                    subscriber.receive(value)
                    bench_count_add()
                    return value + tag.id - link + 1
                }
            }
            let expected = chain + 100
            tail.whenFulfilled { precondition($0 == expected) }
            head.fulfil(with: chain)
        }
    }
}
