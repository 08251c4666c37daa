import Hummingbird
import Petal

extension UserResponse: ResponseGenerator {
    func response(from request: Request, context: some RequestContext) throws -> Response {
        Response(status: .ok)
    }
}

/// The guide's first snippet: a future awaited in a Hummingbird handler.
func addUserRoute(to router: Router<BasicRequestContext>) {
    // snippet: await-in-handler
    router.get("/user/:id") { request, context -> UserResponse in
        let id = try context.parameters.require("id", as: Int.self)
        let user = fetchUser(id)  // Future<User>, started at once
        let friends = fetchFriends(id)  // Future<[Int]>, in parallel
        let both = Future.fulfillingWhen(user, friends).timeout(after: .milliseconds(200))
        let (profile, list) = try await both.value(cancellingUpstream: true)
        return UserResponse(profile, friends: list)
    }
    // snippet end
}
