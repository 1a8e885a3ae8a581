/// How deep arrays and objects nest in JSON text, found by one iterative pass (no recursion, any depth).
///
/// Used where a reader gave up: to say "nests 510 levels" with a path instead of "not valid JSON".
/// It reads structure only (strings skipped, other bytes ignored), so on broken text it is a hint.
enum JSONDepth {
    /// Levels above a payload in a store: the document, `experiments`, an experiment, `variants`, a variant.
    static let storeLevels = 5

    /// The deepest nesting of arrays and objects in `bytes`; nil when there is none.
    static func levels(in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var scan = Scan(bytes)
        var deepest = 0
        while let event = scan.next() {
            if case .opened = event { deepest = max(deepest, scan.stack.count) }
        }
        return deepest == 0 ? nil : deepest
    }

    /// The first value of a store nested deeper than `JSONValue.maxLevels` below the store's own
    /// levels, as a problem naming its path (e.g. `$.experiments[0].variants[1].payload` or an
    /// unknown field's `$.experiments[0].extra`) and depth; nil when there is none or the text does
    /// not even close its brackets (then it is not valid JSON).
    static func storeProblem(in bytes: UnsafeBufferPointer<UInt8>) -> StoreProblem? {
        var scan = Scan(bytes)
        let limit = storeLevels + JSONValue.maxLevels
        var found: (path: String, levels: Int, isPayload: Bool)?
        var deepest = 0
        var measuring = false
        while let event = scan.next() {
            switch event {
            case .opened:
                if found == nil, scan.stack.count > limit {
                    let levels = structureLevels(scan)
                    found = (scan.path(depth: levels), levels, levels == storeLevels && scan.isKey("payload", at: levels - 1))
                    measuring = true
                }
                if measuring { deepest = max(deepest, scan.stack.count) }
            case .closed:
                if measuring, let found, scan.stack.count <= found.levels { measuring = false }
            case .valueFollows:
                continue
            }
        }
        guard let found, scan.stack.isEmpty, scan.position >= bytes.count else { return nil }
        let levels = deepest - found.levels
        return StoreProblem(found.path, found.isPayload ? JSONValue.tooDeepMessage(levels: levels)
            : "nests \(levels) levels of arrays and objects, too deep for a field the store keeps; flatten or remove it by hand")
    }

    /// How many of the open containers are the store's own structure (the document, its
    /// `experiments` and `history` with their records, an experiment's `variants` and `whitelist`
    /// with theirs): what nests below them is one field's value.
    private static func structureLevels(_ scan: Scan) -> Int {
        let stack = scan.stack
        let isList = { (level: Int, keys: [String]) in
            stack.count > level && !stack[level].isObject && keys.contains { scan.isKey($0, at: level - 1) }
        }
        guard stack[0].isObject, isList(1, ["experiments", "history"]) else { return 1 }
        guard stack.count > 2, stack[2].isObject else { return 2 }
        guard scan.isKey("experiments", at: 0), isList(3, ["variants", "whitelist"]) else { return 3 }
        guard stack.count > 4, stack[4].isObject else { return 4 }
        return storeLevels
    }

    /// The first number token outside strings that is well formed but cannot be kept exactly (see `JSONNumber`).
    ///
    /// `JSONDecoder` would read it rounded (or call it invalid JSON); the fast reader defers it, so
    /// both readers refuse it with this problem.
    static func numberProblem(in bytes: UnsafeBufferPointer<UInt8>) -> StoreProblem? {
        var position = 0
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                position += 1
                while position < bytes.count, bytes[position] != UInt8(ascii: "\"") {
                    position += bytes[position] == UInt8(ascii: "\\") ? 2 : 1
                }
                position += 1
            } else if byte == UInt8(ascii: "-") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) {
                let start = position
                while position < bytes.count, isNumberByte(bytes[position]) { position += 1 }
                let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
                if let problem = JSONNumber.problem(literal: text) { return StoreProblem("$", problem) }
            } else {
                position += 1
            }
        }
        return nil
    }

    private static func isNumberByte(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+")
            || byte == UInt8(ascii: ".") || byte | 0x20 == UInt8(ascii: "e")
    }

    /// The containers open at the current position, with each one's current key or index: the one
    /// structure walker of the store's text (`PayloadTexts` finds the payloads with it too).
    struct Scan {
        struct Level {
            let isObject: Bool
            var index = 0
            /// Where the current key's bytes are (between its quotes).
            var key = 0..<0
            var expectsKey: Bool
        }

        /// A container opened or closed, or a `:` (a member's value starts at `position`).
        enum Event { case opened, closed, valueFollows }

        let bytes: UnsafeBufferPointer<UInt8>
        var position = 0
        var stack: [Level] = []

        init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

        /// The next container opened or closed; nil at the end.
        mutating func next() -> Event? {
            while position < bytes.count {
                let byte = bytes[position]
                position += 1
                switch byte {
                case UInt8(ascii: "\""):
                    let start = position
                    while position < bytes.count, bytes[position] != UInt8(ascii: "\"") {
                        position += bytes[position] == UInt8(ascii: "\\") ? 2 : 1
                    }
                    let end = min(position, bytes.count)
                    position += 1
                    if let last = stack.indices.last, stack[last].isObject, stack[last].expectsKey {
                        stack[last].key = start..<end
                        stack[last].expectsKey = false
                    }
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    stack.append(Level(isObject: byte == UInt8(ascii: "{"), expectsKey: byte == UInt8(ascii: "{")))
                    return .opened
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    guard !stack.isEmpty else { continue }
                    stack.removeLast()
                    return .closed
                case UInt8(ascii: ","):
                    guard let last = stack.indices.last else { continue }
                    if stack[last].isObject { stack[last].expectsKey = true } else { stack[last].index += 1 }
                case UInt8(ascii: ":"):
                    return .valueFollows
                default:
                    continue
                }
            }
            return nil
        }

        /// The JSON path of the value that is the container at `depth` (1 is the document itself).
        func path(depth: Int) -> String {
            var path = "$"
            for level in stack.prefix(depth) {
                path += level.isObject ? ".\(String(decoding: UnsafeBufferPointer(rebasing: bytes[level.key]), as: UTF8.self))" : "[\(level.index)]"
            }
            return path
        }

        /// Whether the container at `level` (0 is the document) is an object whose current key is `word`.
        func isKey(_ word: String, at level: Int) -> Bool {
            stack[level].isObject && bytes[stack[level].key].elementsEqual(word.utf8)
        }
    }
}
