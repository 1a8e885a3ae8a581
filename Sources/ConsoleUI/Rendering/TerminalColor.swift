/// One of the eight standard terminal colours, in ANSI order.
package enum TerminalColor: UInt8, Sendable, CaseIterable {
    case black, red, green, yellow, blue, magenta, cyan, white
}
