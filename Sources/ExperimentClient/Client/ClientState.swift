import ExperimentCore

/// Everything an `ExperimentClient` holds behind its lock.
struct ClientState {
    var snapshot: ClientSnapshot?
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
        for (key, variant) in overrides {
            served[key] = Served(variant: variant, payload: snapshot?.experiments[key]?.payloads[variant], isOverride: true)
        }
        return served
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
