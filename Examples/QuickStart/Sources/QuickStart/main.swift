import Dispatch
import Petal

enum GreetingError: Error { case noName }

/// Does its work on another thread and hands back a future at once.
func greeting(for name: String) -> Future<String> {
    let promise = Promise<String>()
    DispatchQueue.global().async {
        if name.isEmpty {
            promise.reject(with: GreetingError.noName)
        } else {
            promise.fulfil(with: "Hello, \(name)!")
        }
    }
    return promise.future
}

let hello = greeting(for: "Petal")
hello.whenFulfilled { print("callback:", $0) }  // runs on the resolving thread
print("waited:", hello.wait())  // callbacks run in order, so this prints second

let nobody = greeting(for: "")
print("failed:", nobody.wait().error.map { "\($0)" } ?? "no error")

var dropped: Promise<Int>? = Promise<Int>()
let orphan = dropped!.future
dropped = nil  // nobody can resolve it now, so its future is cancelled
print("orphan cancelled:", orphan.peek()?.isCancelled ?? false)
