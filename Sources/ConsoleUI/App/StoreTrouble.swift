import ExperimentCore

/// Why the live reload cannot read the store; the title bar says so until a good read.
package enum StoreTrouble: Equatable, Sendable {
    case missing
    case invalid(reason: String)

    /// The trouble behind `error`.
    package init(_ error: StoreError) {
        switch error {
        case .missing: self = .missing
        case .invalid(_, let problems) where !problems.isEmpty:
            self = .invalid(reason: "\(problems[0])" + (problems.count > 1 ? " (+\(problems.count - 1) more)" : ""))
        case .unreadable(_, let reason): self = .invalid(reason: reason)
        default: self = .invalid(reason: error.message)
        }
    }

    /// The title bar's words for it.
    package var text: String {
        switch self {
        case .missing: "store missing"
        case .invalid(let reason): "store invalid: \(reason)"
        }
    }
}
