import ExperimentCore

/// A validated snapshot compiled for decisions: what the client answers from.
struct ClientSnapshot: Sendable {
    let revision: Int
    let experiments: [String: Entry]

    /// One experiment: the core's compiled decision table, its control and each variant's payload.
    struct Entry: Sendable {
        let compiled: CompiledExperiment
        let control: String
        let payloads: [String: JSONValue]

        /// What variant `name` offers a key; nil when the experiment has no such variant.
        func content(of name: String) -> VariantContent? {
            guard compiled.names.contains(name) else { return nil }
            return VariantContent(name: name, isControl: name == control, payload: payloads[name])
        }
    }

    init(revision: Int, experiments: some Sequence<Experiment>) {
        self.revision = revision
        var entries: [String: Entry] = [:]
        for experiment in experiments {
            entries[experiment.key] = Entry(experiment, compiled: CompiledExperiment(experiment))
        }
        self.experiments = entries
    }

    /// The snapshot `ClientSnapshotReader` read: each whitelist moves into its compiled experiment as it is (no copy).
    init(_ reading: consuming ClientReading) {
        revision = reading.revision
        var entries = [String: Entry](minimumCapacity: reading.experiments.count)
        for (index, experiment) in reading.experiments.enumerated() {
            let listed = reading.listed[index]
            reading.listed[index] = [:]
            entries[experiment.key] = Entry(experiment, compiled: CompiledExperiment(experiment, listed: listed))
        }
        experiments = entries
    }
}

extension ClientSnapshot.Entry {
    init(_ experiment: Experiment, compiled: CompiledExperiment) {
        var payloads: [String: JSONValue] = [:]
        for variant in experiment.variants { payloads[variant.name] = variant.payload }
        self.init(compiled: compiled, control: experiment.control, payloads: payloads)
    }
}
