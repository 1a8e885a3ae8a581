/// A rectangle of cells; sizes are never negative.
package struct Rect: Hashable, Sendable {
    package var x: Int
    package var y: Int
    package var width: Int
    package var height: Int

    package init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = max(0, width)
        self.height = max(0, height)
    }

    /// The first column to the right of the rectangle.
    package var maxX: Int { x + width }
    /// The first row below the rectangle.
    package var maxY: Int { y + height }
    /// Whether the rectangle holds no cell.
    package var isEmpty: Bool { width == 0 || height == 0 }

    /// Whether the cell at (x, y) lies inside.
    package func contains(x: Int, y: Int) -> Bool {
        x >= self.x && x < maxX && y >= self.y && y < maxY
    }

    /// The rectangle shrunk by `amount` on every side.
    package func inset(by amount: Int) -> Rect {
        inset(top: amount, left: amount, bottom: amount, right: amount)
    }

    /// The rectangle shrunk by the given amounts; it never gets a negative size.
    package func inset(top: Int = 0, left: Int = 0, bottom: Int = 0, right: Int = 0) -> Rect {
        Rect(x: x + left, y: y + top, width: width - left - right, height: height - top - bottom)
    }

    /// The single-row rectangle at `index` rows below the top (empty when outside).
    package func row(_ index: Int) -> Rect {
        guard index >= 0, index < height else { return Rect(x: x, y: y + max(0, index), width: width, height: 0) }
        return Rect(x: x, y: y + index, width: width, height: 1)
    }

    /// Splits off the top `rows` rows (fewer when the rectangle is shorter).
    package func split(top rows: Int) -> (top: Rect, rest: Rect) {
        let taken = min(max(0, rows), height)
        return (
            Rect(x: x, y: y, width: width, height: taken),
            Rect(x: x, y: y + taken, width: width, height: height - taken)
        )
    }

    /// Splits off the bottom `rows` rows (fewer when the rectangle is shorter).
    package func split(bottom rows: Int) -> (rest: Rect, bottom: Rect) {
        let taken = min(max(0, rows), height)
        return (
            Rect(x: x, y: y, width: width, height: height - taken),
            Rect(x: x, y: y + height - taken, width: width, height: taken)
        )
    }

    /// The cells both rectangles hold (empty when they do not meet).
    package func intersection(_ other: Rect) -> Rect {
        let left = max(x, other.x)
        let top = max(y, other.y)
        return Rect(x: left, y: top, width: min(maxX, other.maxX) - left, height: min(maxY, other.maxY) - top)
    }
}
