import Dispatch
import Foundation
import Petal

struct User: Decodable, Sendable {
    let id: Int
    let name: String
}

enum FetchError: Error { case notFound(String) }

/// A stand-in for the network: answers on another thread, and hands back a future at once.
func fetch(_ path: String) -> Future<Data> {
    let promise = Promise<Data>()
    DispatchQueue.global().async {
        switch path {
        case "/users/1": promise.fulfil(with: Data(#"{"id": 1, "name": "Ada"}"#.utf8))
        case "/users/1/friends": promise.fulfil(with: Data("[2, 3, 5]".utf8))
        case "/slow": DispatchQueue.global().asyncAfter(deadline: .now() + 60) { promise.fulfil(with: Data()) }
        default: promise.reject(with: FetchError.notFound(path))
        }
    }
    return promise.future
}

func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
    try JSONDecoder().decode(type, from: data)
}

// Fetch and decode two things at once, combine them, and await the result.
let user = fetch("/users/1").then { try decode(User.self, from: $0) }
let friends = fetch("/users/1/friends").then { try decode([Int].self, from: $0) }
let summary = Future.fulfillingWhen(user, friends).then { user, friends in
    "\(user.name) has \(friends.count) friends"
}
print(try await summary.value)

// A failure skips the steps below it and reaches the first recovery.
let visitor = fetch("/users/404")
    .then { try decode(User.self, from: $0) }
    .catch { print("failed:", $0) }
    .recover { _ in User(id: 0, name: "guest") }
print("visitor:", try await visitor.value.name)

// Work that takes too long is rejected at its deadline, and asked to stop if its producer listens
// (`whenCancellationRequested`); this stand-in does not listen, so its work runs on.
let slow = fetch("/slow").timeout(after: .milliseconds(50))
print("slow:", await slow.outcome.error.map { "\($0)" } ?? "in time")
