import Foundation

/// A unique directory under the system temp directory, removed by `remove()`.
package struct TempDirectory {
    package let url: URL

    package init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("abconsole-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: false)
    }

    package func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    package func remove() { try? FileManager.default.removeItem(at: url) }
}
