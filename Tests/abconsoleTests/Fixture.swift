import Foundation
import Testing

/// A store built once through the CLI and copied into each test's sandbox.
///
/// - `draft_exp`: user-level, draft, control=50,green=50
/// - `running_exp`: user-level, running, control=50,green=50
/// - `paused_exp`: user-level, paused, control=50,green=50
/// - `resolved_exp`: user-level, resolved to `green`
enum Fixture {
    static let storeBytes: Data = {
        guard let sandbox = try? Sandbox() else { return Data() }
        for key in ["draft_exp", "running_exp", "paused_exp", "resolved_exp"] {
            sandbox.ok(["create", key, "--type", "user", "--variants", "control=50,green=50"])
        }
        sandbox.ok(["start", "running_exp"])
        sandbox.ok(["start", "paused_exp"])
        sandbox.ok(["pause", "paused_exp"])
        sandbox.ok(["start", "resolved_exp"])
        sandbox.ok(["resolve", "resolved_exp", "green", "--yes"])
        return sandbox.storeBytes() ?? Data()
    }()

    /// A fresh sandbox holding the fixture store.
    static func sandbox() throws -> Sandbox { try Sandbox(storeBytes: storeBytes) }
}
