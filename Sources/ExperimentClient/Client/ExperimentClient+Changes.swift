extension ExperimentClient {
    /// The experiment keys whose answer changed, once per change of snapshot, subject or overrides,
    /// for as long as the stream is iterated (each access is a new stream; it ends when the
    /// iterating task is cancelled or the stream is dropped).
    ///
    /// Keys arrive on the iterating task, in the order of the changes; the newest 64 changes are
    /// kept for a consumer that falls behind.
    public var changes: AsyncStream<Set<String>> {
        AsyncStream(bufferingPolicy: .bufferingNewest(64)) { continuation in
            let observation = observeChanges { continuation.yield($0) }
            continuation.onTermination = { _ in observation.cancel() }
        }
    }
}
