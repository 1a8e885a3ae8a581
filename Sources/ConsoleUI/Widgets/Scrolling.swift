/// Which rows of a long list are drawn so the selected one is visible.
enum Scrolling {
    /// The first row to draw: the selected row centred when the list is longer than `visible`, the
    /// window clamped to the list's ends (so the first and last pages are full).
    static func firstRow(selected: Int, count: Int, visible: Int) -> Int {
        guard count > visible, visible > 0 else { return 0 }
        return min(max(0, selected - visible / 2), count - visible)
    }
}
