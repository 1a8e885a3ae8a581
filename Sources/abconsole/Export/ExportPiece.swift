import ExperimentCore
import Foundation

/// A piece of a streamed export: bytes from the encoder, or where an experiment's whitelisted
/// entries go (all of them, or one variant's).
enum ExportPiece {
    case bytes(Data)
    case entries(Experiment, variant: Int?)

    /// Experiments per encoder call: one call per experiment cost more than the encoding.
    static let batch = 256
}
