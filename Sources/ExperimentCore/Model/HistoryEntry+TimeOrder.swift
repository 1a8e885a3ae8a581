import Foundation

/// The history is kept in time order (SPEC §11 rule 4): an entry recorded by a clock behind the
/// newest one is placed by its time, never re-timed.
extension Array where Element == HistoryEntry {
    /// Inserts `entry` after the last entry whose time is not later than its own (after every entry
    /// of the same time); at the end when it is the newest, as a change on one clock always is.
    public mutating func insertInTimeOrder(_ entry: HistoryEntry) {
        var index = endIndex
        while index > startIndex, self[index - 1].at > entry.at { index -= 1 }
        insert(entry, at: index)
    }
}
