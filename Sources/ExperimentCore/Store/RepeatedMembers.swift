import Foundation

/// Finds an object in JSON text that names one member twice (`{"a": 1, "a": 2}`), at any depth.
///
/// JSON readers disagree on such text: Foundation's `JSONDecoder` keeps one value, Python and
/// JavaScript the last, so a store or snapshot that repeats a member means different things to
/// different readers (and a save would silently drop one). Every reader of the store refuses it.
/// Names are compared as Swift strings, as `JSONDecoder` compares keys (`é` and `e` + U+0301 are
/// one name). Run where the fast readers declined (they never accept a repeated member).
package enum RepeatedMembers {
    /// The first repeated member in `data` as a problem naming its JSON path; nil when there is none.
    package static func problem(in data: Data) -> StoreProblem? {
        data.withUnsafeBytes { problem(in: $0.bindMemory(to: UInt8.self)) }
    }

    static func problem(in bytes: UnsafeBufferPointer<UInt8>) -> StoreProblem? {
        var scan = JSONDepth.Scan(bytes)
        // The names seen so far in each open container (empty for arrays).
        var names: [Set<String>] = []
        while let event = scan.next() {
            switch event {
            case .opened:
                names.append([])
            case .closed:
                if !names.isEmpty { names.removeLast() }
            case .valueFollows:
                guard let top = scan.stack.indices.last, scan.stack[top].isObject, top < names.count else { continue }
                let name = self.name(bytes, scan.stack[top].key)
                if !names[top].insert(name).inserted {
                    return StoreProblem(scan.path(depth: top) + "." + name, message(name))
                }
            }
        }
        return nil
    }

    /// The problem's words for a member `name` given twice in one object.
    static func message(_ name: String) -> String {
        "repeated member \"\(name)\": JSON readers disagree on which value counts (Python and JavaScript take the last); keep one by hand"
    }

    /// The member name whose bytes (between its quotes) are `range`, escapes decoded.
    private static func name(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String {
        let raw = UnsafeBufferPointer(rebasing: bytes[range])
        guard raw.contains(UInt8(ascii: "\\")), range.lowerBound > 0, range.upperBound < bytes.count else {
            return String(decoding: raw, as: UTF8.self)
        }
        var cursor = JSONCursor(UnsafeBufferPointer(rebasing: bytes[(range.lowerBound - 1)...range.upperBound]))
        return cursor.string() ?? String(decoding: raw, as: UTF8.self)
    }
}
