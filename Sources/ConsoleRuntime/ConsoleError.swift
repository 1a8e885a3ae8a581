/// A failure the console reports in its status bar.
struct ConsoleError: Error {
    let message: String
}
