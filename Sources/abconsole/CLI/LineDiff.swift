/// A plain line diff: the lines two texts share at their start and end left out, the rest shown as
/// removed (`-`) then added (`+`), with the line numbers where they differ. What `abconsole diff`
/// prints for a file that is not a valid store (a hand edit), so git's diff goes on.
enum LineDiff {
    static func lines(old: [String], new: [String]) -> [String] {
        let head = zip(old, new).prefix { $0 == $1 }.count
        let tail = zip(old.dropFirst(head).reversed(), new.dropFirst(head).reversed()).prefix { $0 == $1 }.count
        let removed = old[head..<(old.count - tail)], added = new[head..<(new.count - tail)]
        if removed.isEmpty && added.isEmpty { return [] }
        return ["@@ -\(head + 1),\(removed.count) +\(head + 1),\(added.count) @@"] + removed.map { "-" + $0 } + added.map { "+" + $0 }
    }
}
