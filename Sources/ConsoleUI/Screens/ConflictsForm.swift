import ExperimentCore
import ExperimentEditing

/// The conflicts git left in the store (a merge by the driver that ended in conflicts) that the
/// file still holds OURS's value of: each with BASE, OURS and THEIRS in words. The operator picks
/// a side per conflict; Enter writes those sides into the store as the file holds it (validated,
/// each choice recorded in the history) and stages it (`git add`), so `git commit` concludes the merge.
package struct ConflictsForm: Equatable, Sendable {
    package var conflicts: [MergeConflict]
    /// Per conflict: whether THEIRS's value is taken (OURS's at first: what the file holds).
    package var takesTheirs: [Bool]
    /// The conflict the arrows change.
    package var focus = 0

    package init(_ conflicts: [MergeConflict]) {
        self.conflicts = conflicts
        takesTheirs = Array(repeating: false, count: conflicts.count)
    }

    /// The ids of the conflicts settled with THEIRS's value.
    package var theirs: Set<String> {
        Set(conflicts.indices.filter { takesTheirs[$0] }.map { conflicts[$0].id })
    }

    mutating func handle(_ key: Key, _ intent: Intent?, _ context: ScreenContext) -> ScreenReply {
        guard !conflicts.isEmpty else { return .close() }
        switch intent {
        case .nextField: focus = (focus + 1) % conflicts.count
        case .previousField: focus = (focus + conflicts.count - 1) % conflicts.count
        case .cycleNext, .cyclePrevious: takesTheirs[focus].toggle()
        case .submit: return .start(.resolveConflicts(shown: conflicts, takingTheirs: theirs), closing: true)
        case .cancel:
            return .close(saying: .info("the conflicts stay: the store holds OURS's value of each and git still lists it as conflicted"))
        default: break
        }
        return .none
    }
}

extension ConflictsForm {
    /// Draws the conflicts, the focused one marked, each with its three values and the side taken.
    static func render(_ form: ConflictsForm, _ app: AppState, into buffer: inout ScreenBuffer, area: Rect) {
        let rect = Box.centered(width: min(area.width - 4, 100), height: max(8, area.height - 2), in: area)
        Box.render(rect, title: "Merge conflicts in the store (\(form.conflicts.count))", into: &buffer)
        let content = Box.content(of: rect)
        let x = content.x, width = content.width
        buffer.write("git merged the store by meaning; these units changed differently on both sides. Pick a side for each.",
                     x: x, y: content.y, maxWidth: width, style: Palette.dim)
        var y = content.y + 2
        // Four lines a conflict; scroll so the focused one shows.
        let perConflict = 4
        let fits = max(1, (content.maxY - 1 - y) / perConflict)
        let first = max(0, min(form.focus - fits + 1, form.conflicts.count - fits))
        for index in form.conflicts.indices.dropFirst(first).prefix(fits) {
            let conflict = form.conflicts[index]
            let focused = index == form.focus
            let side = form.takesTheirs[index] ? "THEIRS" : "OURS"
            let marker = focused ? "›" : " "
            buffer.write("\(marker) \(SafeText.escaped(conflict.title)) — take \(side)", x: x, y: y, maxWidth: width,
                         style: focused ? Palette.selected : CellStyle.plain)
            buffer.write("    BASE   \(SafeText.escaped(conflict.base ?? "∅"))", x: x, y: y + 1, maxWidth: width, style: Palette.dim)
            buffer.write("    OURS   \(SafeText.escaped(conflict.ours ?? "∅"))", x: x, y: y + 2, maxWidth: width,
                         style: form.takesTheirs[index] ? Palette.dim : CellStyle.plain)
            buffer.write("    THEIRS \(SafeText.escaped(conflict.theirs ?? "∅"))", x: x, y: y + 3, maxWidth: width,
                         style: form.takesTheirs[index] ? CellStyle.plain : Palette.dim)
            y += perConflict
        }
        buffer.write("Tab/S-Tab next/previous conflict · ←/→ switch side · Enter write and stage · Esc leave them",
                     x: x, y: content.maxY - 1, maxWidth: width, style: Palette.dim)
    }
}
