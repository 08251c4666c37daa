/// What a promise does when it is resolved again after its first resolution.
///
/// Chosen when the promise is created, for example
/// `Promise<Data>(onRepeatedResolution: .ignore)`. Either way the first resolution stands and a
/// later one returns `false`; the policy only decides whether anybody hears about it.
public enum RepeatedResolutionPolicy: Sendable, Hashable {
    /// Count the repeat in ``PetalDiagnostics`` and pass it to
    /// ``PetalDiagnostics/handler``. The default: a repeat usually means two
    /// code paths each believe they finish the same work.
    case report
    /// Say nothing: a losing resolution returns `false`, and is neither counted nor passed to any
    /// handler. For resolvers that race on purpose: the first of several replicas to answer
    /// wins, or a result races a deadline.
    case ignore
}
