/// A one-line text input: typed characters append, Backspace deletes the last one.
public struct TextField: Equatable, Sendable {
    public var text: String

    public init(_ text: String = "") { self.text = text }

    /// Applies a typing key; returns whether the key was consumed.
    @discardableResult
    public mutating func type(_ key: Key) -> Bool {
        switch key {
        case .character(let character) where !character.isNewline:
            text.append(character)
        case .backspace:
            if !text.isEmpty { text.removeLast() }
        case .control("u"):
            text = ""
        default:
            return false
        }
        return true
    }

    /// Draws `label: [text▏]` at (x, y), the field reversed when focused.
    static func render(_ field: TextField, label: String, focused: Bool, x: Int, y: Int, width: Int, into buffer: inout ScreenBuffer) {
        let used = buffer.write("\(label) ", x: x, y: y, style: focused ? Palette.key : .plain)
        let shown = SafeText.escaped(field.text) + (focused ? "▏" : "")
        buffer.write(DisplayWidth.pad(DisplayWidth.truncate(shown, toWidth: max(0, width - used)), toWidth: max(0, width - used)),
                     x: x + used, y: y, style: focused ? Palette.selected : .underline)
    }
}
