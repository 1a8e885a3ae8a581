/// The terminal's size in cells, as the runtime last reported it (`Action.resized`).
public struct TerminalSize: Equatable, Sendable {
    public var width: Int
    public var height: Int

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// What the update assumes until the runtime reports the real size.
    public static let standard = TerminalSize(width: 80, height: 24)
}
