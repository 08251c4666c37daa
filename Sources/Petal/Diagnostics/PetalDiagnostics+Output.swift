extension PetalDiagnostics {
    /// The descriptor the default handlers' lines are written to: 2, standard error, unless a
    /// test points it elsewhere (a pipe it reads, or one nobody reads).
    ///
    /// Setting it sends later lines to the new descriptor, then waits until the lines already
    /// queued for the previous one are written, so that the caller may close the previous
    /// descriptor once the setter returns (if nobody reads it, drain it first, or the setter
    /// waits for ever).
    @_spi(Testing)
    public static var outputDescriptor: Int32 {
        get { DiagnosticOutput.descriptor }
        set { DiagnosticOutput.redirect(to: newValue) }
    }

    /// Waits until every line the default handlers have queued so far is written, so that a test
    /// reading the output sees them.
    @_spi(Testing)
    public static func waitUntilOutputIsWritten() {
        DiagnosticOutput.waitUntilWritten()
    }
}
