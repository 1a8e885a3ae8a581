import ExperimentCore

extension ExperimentClient {
    /// Call when the user actually sees the variant of `key`: logs one exposure to the sink the first
    /// time this subject is shown this variant of this experiment in this client's life.
    ///
    /// Only values that came from a `bucketed` decision are exposures (SPEC §8): defaults,
    /// overrides, whitelisted, draft, paused, resolved and not-enrolled answers log nothing. In
    /// remote mode a `SPLIT` answer is one, naming the id its `metadata.subjectType` says (the answer
    /// does not tell bucketed from paused or resolved: `abconsole serve` refuses those rows).
    /// - Returns: whether an exposure was logged.
    @discardableResult
    public func markSeen<Key: ExperimentKey>(_ key: Key.Type) -> Bool {
        let id = ObjectIdentifier(key)
        lock.acquire()
        var reports: [ClientReport] = []
        let resolved: Resolved<Key.Value>
        if let cached = answers[id] {
            resolved = unsafeDowncast(cached, to: Resolved<Key.Value>.self)
        } else {
            resolved = resolve(key, reports: &reports)
            answers[id] = resolved
        }
        let exposure = resolved.exposure.flatMap(firstExposure)
        let delivery = fresh(reports)
        lock.release()
        deliver(delivery)
        guard let exposure else { return false }
        if let sink = exposureSink, let reason = sink.recordReportingFailure(exposure) {
            deliver(lock.withLock { fresh([.exposureNotRecorded(sink: Self.name(of: sink), reason: reason)]) })
            return false
        }
        return true
    }

    /// How a report names `sink`: the file of a JSON Lines sink, the endpoint of an HTTP one, else its type.
    static func name(of sink: any ExposureSink) -> String {
        (sink as? JSONLinesExposureSink)?.path ?? (sink as? HTTPExposureSink)?.endpoint.absoluteString ?? String(describing: type(of: sink))
    }

    /// The exposure of `target` if this subject, experiment and variant have not been logged yet (under the lock).
    private func firstExposure(_ target: ExposureTarget) -> Exposure? {
        let mark = ClientState.ExposureMark(subject: SubjectID(target.subject), experiment: target.experiment, variant: target.variant)
        guard state.exposed.insert(mark).inserted else { return nil }
        return Exposure(timestamp: now(), experiment: target.experiment, variant: target.variant, subject: target.subject)
    }
}
