import NIOCore
import Petal

// snippet: cancellable-call
func call(_ backend: Backend, on loop: any EventLoop) -> Future<Int> {
    let promise = Promise<Int>()
    let request = backend.send { reply in promise.fulfil(with: reply) }
    // On a request: cancels the future, then runs this to stop the work.
    promise.cancelWhenRequested { request.cancel() }
    return promise.future
}
// snippet end
