import Foundation

/// A whitelist entry read from the writer's line, held until its experiment's dictionary is built.
///
/// The writer's lines carry no unknown fields, so it is a `WhitelistEntry` without them: 72 bytes
/// a slot instead of 80, which is 8 MB of a load's peak for each million entries (the array lives
/// beside the file's bytes).
struct PendingEntry {
    let subject: String
    let variant: String
    let note: String
    let addedBy: String
    let addedAt: Date

    /// The entry as the store holds it.
    var entry: WhitelistEntry {
        WhitelistEntry(subject: subject, variant: variant, note: note, addedBy: addedBy, addedAt: addedAt)
    }
}
