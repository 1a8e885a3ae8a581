/// Where the client sends exposures: a file, an analytics SDK, a queue. Called outside the client's
/// lock, possibly from several threads at once.
public protocol ExposureSink: Sendable {
    func record(_ exposure: Exposure)
    /// Records `exposure` and says why it was lost, if it was; the client reports that to its delegate.
    func recordReportingFailure(_ exposure: Exposure) -> String?
    /// Called by the client that logs to this sink: `report` takes why exposures were lost after
    /// `record` returned (a batch a server refused), and the client reports it to its delegate.
    func reportLosses(to report: @escaping @Sendable (String) -> Void)
}

extension ExposureSink {
    /// A sink that cannot tell a failure records and reports none.
    public func recordReportingFailure(_ exposure: Exposure) -> String? {
        record(exposure)
        return nil
    }

    /// A sink that loses nothing after `record` has nothing to report.
    public func reportLosses(to report: @escaping @Sendable (String) -> Void) {}
}
