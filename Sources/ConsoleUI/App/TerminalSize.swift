/// The terminal's size in cells, as the runtime last reported it (`Action.resized`).
package struct TerminalSize: Equatable, Sendable {
    package var width: Int
    package var height: Int

    package init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// What the update assumes until the runtime reports the real size.
    package static let standard = TerminalSize(width: 80, height: 24)
}
