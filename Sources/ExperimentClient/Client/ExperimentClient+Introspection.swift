extension ExperimentClient {
    /// The variant experiment `key` serves the current subject, by name: for debug menus and tools
    /// that list experiments without typed keys. `value` is nil when neither the snapshot nor the server's answers have the key.
    /// Reports nothing and caches nothing.
    public func evaluation(forKey key: String) -> Evaluation<String?> {
        lock.withLock {
            if let variant = state.overrides[key] { return Evaluation(value: variant, variant: variant, source: .override) }
            if let remote = state.remote {
                guard let flag = remote.flags[key] else { return Evaluation(value: nil, variant: nil, source: .fallback(.keyNotFound)) }
                return Evaluation(value: flag.variant, variant: flag.variant, source: .server(reason: flag.reason))
            }
            guard let snapshot = state.snapshot else { return Evaluation(value: nil, variant: nil, source: .fallback(.noSnapshot)) }
            guard let entry = snapshot.experiments[key] else { return Evaluation(value: nil, variant: nil, source: .fallback(.keyNotFound)) }
            let decision = entry.compiled.decide(for: state.subject)
            return Evaluation(value: decision.variant, variant: decision.variant, source: .experiment(decision.reason))
        }
    }
}
