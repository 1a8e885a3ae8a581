/// "Did you mean …?" for a mistyped name: the closest known names by Damerau–Levenshtein distance.
///
/// As git and kubectl do: a name is suggested when it is at most a couple of edits away (a
/// swapped pair of letters counts as one edit), or when the typed word is the start of it.
public enum Suggestions {
    /// The known names closest to `word`, best first (ties by name), at most `limit` of them.
    public static func closest(to word: String, among names: some Sequence<String>, limit: Int = 3) -> [String] {
        let typed = Array(word.lowercased().unicodeScalars)
        guard !typed.isEmpty else { return [] }
        let allowed = maxDistance(forLength: typed.count)
        var scored: [(distance: Int, name: String)] = []
        for name in Set(names) where name != word {
            let candidate = Array(name.lowercased().unicodeScalars)
            let distance = candidate.starts(with: typed) && typed.count >= 2 ? 1 : self.distance(typed, candidate, atMost: allowed)
            if distance <= allowed { scored.append((distance, name)) }
        }
        guard let best = scored.map(\.distance).min() else { return [] }
        return scored.filter { $0.distance == best }.map(\.name).sorted().prefix(limit).map { $0 }
    }

    /// The sentence ending a refusal: "; did you mean `list`?", or "" when nothing is close.
    public static func hint(for word: String, among names: some Sequence<String>, quote: (String) -> String = { "`\($0)`" }) -> String {
        let close = closest(to: word, among: names)
        switch close.count {
        case 0: return ""
        case 1: return "; did you mean \(quote(close[0]))?"
        default: return "; did you mean one of \(close.map(quote).joined(separator: ", "))?"
        }
    }

    /// Edits allowed for a word of `length` characters: 1 up to 4 characters, 2 up to 12, else 3.
    static func maxDistance(forLength length: Int) -> Int {
        length <= 4 ? 1 : length <= 12 ? 2 : 3
    }

    /// The optimal-string-alignment distance (insertions, deletions, substitutions and adjacent
    /// transpositions), or `limit + 1` once it is certainly over `limit`.
    static func distance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar], atMost limit: Int) -> Int {
        if abs(a.count - b.count) > limit { return limit + 1 }
        var previous2 = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            var rowMinimum = i
            for j in 1...max(b.count, 1) where j <= b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { value = min(value, previous2[j - 2] + 1) }
                current[j] = value
                rowMinimum = min(rowMinimum, value)
            }
            if rowMinimum > limit { return limit + 1 }
            (previous2, previous, current) = (previous, current, previous2)
        }
        return min(previous[b.count], limit + 1)
    }
}
