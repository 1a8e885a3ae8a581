import ExperimentCore

/// Everything an `ExperimentClient` holds behind its lock.
struct ClientState {
    var snapshot: ClientSnapshot?
    /// The server's answers in remote mode (then `snapshot` is nil, and the other way round).
    var remote: RemoteAnswers?
    var subject: Subject
    /// QA overrides: variant name by experiment key.
    var overrides: [String: String] = [:]
    /// Reports already delivered (each goes out once).
    var reported: Set<ClientReport> = []
    /// Exposures already logged in this client's life.
    var exposed: Set<ExposureMark> = []
    var observers: [Int: @Sendable (Set<String>) -> Void] = [:]
    var nextObserver = 0

    /// What each experiment serves this subject now: variant and payload by key (overrides included).
    func served() -> [String: Served] {
        var served: [String: Served] = [:]
        if let snapshot {
            for (key, entry) in snapshot.experiments {
                let variant = entry.compiled.names[entry.compiled.variantIndex(for: subject)]
                served[key] = Served(variant: variant, payload: entry.payloads[variant])
            }
        }
        for (key, flag) in remote?.flags ?? [:] {
            served[key] = Served(variant: flag.variant, payload: flag.value)
        }
        for (key, variant) in overrides {
            served[key] = Served(variant: variant, payload: content(of: variant, key: key).payload, isOverride: true)
        }
        return served
    }

    /// What `variant` of experiment `key` offers, from the snapshot or the server's answer; a
    /// variant neither knows (an override naming another variant in remote mode) has no payload.
    func content(of variant: String, key: String) -> VariantContent {
        if let content = snapshot?.experiments[key]?.content(of: variant) { return content }
        if let flag = remote?.flags[key], flag.variant == variant { return flag.content }
        return VariantContent(name: variant, isControl: false, payload: nil)
    }

    /// One key's answer as far as change notifications care.
    struct Served: Equatable {
        var variant: String
        var payload: JSONValue?
        var isOverride = false
    }

    /// An exposure already logged: subject, experiment and variant.
    struct ExposureMark: Hashable {
        let subject: SubjectID
        let experiment: String
        let variant: String
    }
}
