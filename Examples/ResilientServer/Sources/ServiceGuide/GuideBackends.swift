import NIOCore
import Petal

// What the service guide's snippets call but do not show: a backend client, users, responses.
// The snippets are the compiled regions of the other files (Scripts/check-snippets); this file
// only gives them something to call.

/// A backend client whose calls can be stopped, as the guide's `call(_:on:)` expects.
final class Backend: Sendable {
    /// A call on its way, which `cancel()` stops.
    struct Request: Sendable {
        func cancel() {}
    }

    /// Sends a call; `reply` gets its answer.
    func send(_ reply: @escaping @Sendable (Int) -> Void) -> Request {
        reply(1)
        return Request()
    }

    /// One call for `key`, as a future.
    func call(_ key: Int) -> Future<Int> { .fulfilled(with: key) }

    /// One call made on `loop`, as a future.
    func call(on loop: any EventLoop) -> Future<Int> { .fulfilled(with: 1) }
}

/// A user's profile.
struct User: Sendable {
    let name: String
}

/// What the guide's user route answers.
struct UserResponse: Sendable {
    let user: User
    let friends: [Int]

    init(_ user: User, friends: [Int]) {
        self.user = user
        self.friends = friends
    }
}

/// The guide's user lookups.
func fetchUser(_ id: Int) -> Future<User> { .fulfilled(with: User(name: "\(id)")) }
func fetchFriends(_ id: Int) -> Future<[Int]> { .fulfilled(with: [id]) }

/// A backend's refusal: it is down, and a retry may find it back.
struct BackendUnavailableError: Error {}
