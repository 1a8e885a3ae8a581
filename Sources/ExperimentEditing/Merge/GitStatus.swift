/// Where the store stands in git, for the console's title bar (read by `GitCommands.status(of:)` in ExperimentStore).
public struct GitStatus: Equatable, Sendable {
    /// What git says of the store file itself.
    public enum StoreState: String, Equatable, Sendable {
        case committed, uncommitted, untracked, conflicted
    }

    /// The branch; nil on a detached HEAD.
    public var branch: String?
    /// Commits ahead of and behind the upstream; nil without an upstream.
    public var ahead: Int?
    public var behind: Int?
    public var store: StoreState

    public init(branch: String?, ahead: Int? = nil, behind: Int? = nil, store: StoreState) {
        self.branch = branch
        self.ahead = ahead
        self.behind = behind
        self.store = store
    }

    /// `main ↑1 ↓2 · uncommitted`, as the title bar shows it.
    public var text: String {
        var words = branch ?? "detached HEAD"
        if let ahead, ahead > 0 { words += " ↑\(ahead)" }
        if let behind, behind > 0 { words += " ↓\(behind)" }
        switch store {
        case .committed: break
        case .uncommitted: words += " · uncommitted"
        case .untracked: words += " · not in git"
        case .conflicted: words += " · CONFLICTED"
        }
        return words
    }
}
