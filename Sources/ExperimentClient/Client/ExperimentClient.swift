import ExperimentCore
import Foundation

/// What an app asks for its variants: typed values from the current snapshot, for one subject.
///
/// `value(for:)` is synchronous and never throws: it reads memory only, and whatever goes wrong
/// (no snapshot yet, unknown key, unknown variant, undecodable payload) serves the key's default
/// and is reported once to the delegate. Every decision comes from the core's decision table
/// (`CompiledExperiment.decide(for:)`, SPEC §4). Safe to use from any thread.
/// `@unchecked Sendable`: its `var`s are touched only under `lock` (answers) or `replacementLock` (the state and its delivery).
public final class ExperimentClient: @unchecked Sendable {
    @usableFromInline let lock = ClientLock()
    /// Each key type's answer for the current snapshot, subject and overrides (a `Resolved<Value>`),
    /// guarded by `lock`; cleared by every change.
    @usableFromInline var answers: [ObjectIdentifier: AnyObject] = [:]
    /// Serialises snapshot replacements (read, validate, persist, swap), so the cache file and memory agree.
    let replacementLock = ClientLock()
    /// Where the snapshot came from (URL, ETag) and the background refresh.
    let delivery = DeliveryState()
    var state: ClientState
    /// Where the last good snapshot is kept for the next launch.
    let cacheURL: URL?
    let exposureSink: (any ExposureSink)?
    let now: @Sendable () -> Date
    weak var delegateReference: (any ExperimentClientDelegate)?

    /// A client for `subject`; loads the last good snapshot from `cacheURL` if one was saved there.
    ///
    /// - Parameters:
    ///   - cacheURL: a file the app chooses; each snapshot that replaces the current one is saved
    ///     there atomically, and read back here at the next launch (a server's answers, in remote
    ///     mode, go beside it, to `cacheURL` + `.remote.json`).
    ///   - exposureSink: where `markSeen` logs exposures (e.g. `JSONLinesExposureSink`).
    ///   - delegate: receives each report once (held weakly).
    ///   - now: the clock stamped on exposures.
    public init(subject: Subject = Subject(), cacheURL: URL? = nil, exposureSink: (any ExposureSink)? = nil,
                delegate: (any ExperimentClientDelegate)? = nil, now: @escaping @Sendable () -> Date = { Date() }) {
        let (checked, subjectReports) = Self.checked(subject)
        state = ClientState(subject: checked)
        self.cacheURL = cacheURL
        self.exposureSink = exposureSink
        self.now = now
        delegateReference = delegate
        var reports = subjectReports
        if let cacheURL, FileManager.default.fileExists(atPath: cacheURL.path) {
            switch Self.read(cacheURL) {
            case .success(let snapshot): state.snapshot = snapshot
            case .failure(let error): reports.append(.snapshotNotUsed(error))
            }
        } else if let cacheURL {
            state.remote = RemoteAnswers.read(RemoteAnswers.cacheURL(cacheURL))
        }
        deliver(lock.withLock { fresh(reports) })
        if let exposureSink {
            let name = Self.name(of: exposureSink)
            exposureSink.reportLosses { [weak self] reason in
                guard let self else { return }
                self.deliver(self.lock.withLock { self.fresh([.exposureNotRecorded(sink: name, reason: reason)]) })
            }
        }
    }

    /// Receives each report once; held weakly.
    public var delegate: (any ExperimentClientDelegate)? {
        get { lock.withLock { delegateReference } }
        set { lock.withLock { delegateReference = newValue } }
    }

    /// The value of `key` for the current subject: the experiment's, an override's, or the default.
    ///
    /// Inlinable so that the warm path (lock, cached answer by key type, unlock) is specialized
    /// for `Key` in the caller; the first call per key and state goes through `evaluation(for:)`.
    @inlinable
    public func value<Key: ExperimentKey>(for key: Key.Type) -> Key.Value {
        lock.acquire()
        if let cached = answers[ObjectIdentifier(key)] {
            // Entries are keyed by the key type, whose `Value` is fixed: the cast always holds.
            let value = unsafeDowncast(cached, to: Resolved<Key.Value>.self).value
            lock.release()
            return value
        }
        lock.release()
        return evaluation(for: key).value
    }

    /// The value of `key` with the variant it came from and why.
    public func evaluation<Key: ExperimentKey>(for key: Key.Type) -> Evaluation<Key.Value> {
        let id = ObjectIdentifier(key)
        lock.acquire()
        if let cached = answers[id] {
            let evaluation = unsafeDowncast(cached, to: Resolved<Key.Value>.self).evaluation
            lock.release()
            return evaluation
        }
        var reports: [ClientReport] = []
        let resolved = resolve(key, reports: &reports)
        answers[id] = resolved
        let delivery = fresh(reports)
        lock.release()
        deliver(delivery)
        return resolved.evaluation
    }

    /// The revision of the store the current snapshot came from; nil before any snapshot.
    public var snapshotRevision: Int? { lock.withLock { state.snapshot?.revision } }

    /// The experiment keys in the current snapshot (or the server's answers), sorted.
    public var experimentKeys: [String] {
        lock.withLock { (state.snapshot.map { Array($0.experiments.keys) } ?? state.remote.map { Array($0.flags.keys) } ?? []).sorted() }
    }

    // MARK: - Deciding (under the lock)

    /// The answer for `key`: override, then the experiment's decision, else the default with a report.
    func resolve<Key: ExperimentKey>(_ key: Key.Type, reports: inout [ClientReport]) -> Resolved<Key.Value> {
        let name = Key.key
        func fallback(_ reason: Evaluation<Key.Value>.Fallback) -> Resolved<Key.Value> {
            Resolved(Evaluation(value: Key.defaultValue, variant: nil, source: .fallback(reason)))
        }
        /// The key's value for `content`, or the default with the reason reported.
        func mapped(_ content: VariantContent, source: Evaluation<Key.Value>.Source, exposure: ExposureTarget? = nil) -> Resolved<Key.Value> {
            do {
                let value = try Key.value(of: content)
                return Resolved(Evaluation(value: value, variant: content.name, source: source), exposure: exposure)
            } catch {
                switch error {
                case .unknownVariant:
                    reports.append(.unknownVariant(key: name, variant: content.name))
                    return fallback(.unknownVariant)
                case .undecodablePayload(let reason):
                    reports.append(.undecodablePayload(key: name, variant: content.name, reason: reason))
                    return fallback(.undecodablePayload)
                }
            }
        }
        if let variant = state.overrides[name] {
            let resolved = mapped(state.content(of: variant, key: name), source: .override)
            if resolved.evaluation.source == .override { reports.append(.overridden(key: name, variant: variant)) }
            return resolved
        }
        if let remote = state.remote {
            guard let flag = remote.flags[name] else {
                reports.append(.keyNotFound(key: name))
                return fallback(.keyNotFound)
            }
            let subject = flag.reason == "SPLIT" ? remote.context.exposureSubject(flag.subjectType) : nil
            return mapped(flag.content, source: .server(reason: flag.reason),
                          exposure: subject.map { ExposureTarget(experiment: name, variant: flag.variant, subject: $0) })
        }
        guard let snapshot = state.snapshot else {
            reports.append(.noSnapshot)
            return fallback(.noSnapshot)
        }
        guard let entry = snapshot.experiments[name] else {
            reports.append(.keyNotFound(key: name))
            return fallback(.keyNotFound)
        }
        let decision = entry.compiled.decide(for: state.subject)
        let content = entry.content(of: decision.variant) ?? VariantContent(name: decision.variant, isControl: false, payload: nil)
        let exposure = decision.reason == .bucketed ? decision.subject.map {
            ExposureTarget(experiment: decision.experiment, variant: decision.variant, subject: $0)
        } : nil
        return mapped(content, source: .experiment(decision.reason), exposure: exposure)
    }

    // MARK: - Reports

    /// The reports not delivered before, marked as delivered, with the delegate to give them to (under the lock).
    func fresh(_ reports: [ClientReport]) -> Delivery {
        let new = reports.filter { state.reported.insert($0).inserted }
        return Delivery(reports: new, delegate: new.isEmpty ? nil : delegateReference)
    }

    /// Hands reports to the delegate (outside the lock, so the delegate may call the client).
    func deliver(_ delivery: Delivery) {
        guard let delegate = delivery.delegate else { return }
        for report in delivery.reports { delegate.experimentClient(self, didReport: report) }
    }

    /// Reports on their way to a delegate.
    struct Delivery {
        let reports: [ClientReport]
        let delegate: (any ExperimentClientDelegate)?
    }

    /// `subject` with invalid ids removed, and a report for each.
    static func checked(_ subject: Subject) -> (Subject, [ClientReport]) {
        var subject = subject
        var reports: [ClientReport] = []
        if let id = subject.userID, !id.isEmpty, !Identifier.isValidSubject(id) {
            reports.append(.invalidSubjectID(id))
            subject.userID = nil
        }
        if let id = subject.deviceID, !id.isEmpty, !Identifier.isValidSubject(id) {
            reports.append(.invalidSubjectID(id))
            subject.deviceID = nil
        }
        return (subject, reports)
    }
}
