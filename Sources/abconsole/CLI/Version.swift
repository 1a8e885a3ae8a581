import ExperimentCore

/// What `abconsole --version` prints.
enum Version {
    /// The release of this build.
    static let number = "0.14.0"

    /// `abconsole 0.14.0 (store schema 1)`.
    static var line: String { "abconsole \(number) (store schema \(StoreSnapshot.currentSchemaVersion))" }
}
