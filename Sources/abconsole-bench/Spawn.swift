import Foundation

/// A finished child process: exit status, wall time, its CPU time and its peak resident set.
struct ChildRun {
    var status: Int32
    var wall: Double
    var cpu: Double
    var peakKiB: Int
}

/// Runs `path` like `directSpawn`, but from a fresh, small copy of this benchmark, which reports the
/// child's figures: a child spawned straight from this (large) process inherits its peak resident
/// set in `ru_maxrss`, so peak memory would read as the benchmark's own.
func spawn(_ path: String, _ arguments: [String], stdin: String = "/dev/null", stdout: String = "/dev/null",
           stderr: String = "/dev/null", environment: [String: String]? = nil) -> ChildRun {
    let report = NSTemporaryDirectory() + "abconsole-bench-child-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).txt"
    defer { unlink(report) }
    let wrapper = directSpawn(CommandLine.arguments[0], ["--child", report, stdin, stdout, stderr, path] + arguments, environment: environment)
    guard wrapper.status == 0, let text = try? String(contentsOfFile: report, encoding: .utf8) else { return ChildRun(status: -1, wall: 0, cpu: 0, peakKiB: 0) }
    let fields = text.split(separator: " ").map(String.init)
    guard fields.count == 4 else { return ChildRun(status: -1, wall: 0, cpu: 0, peakKiB: 0) }
    return ChildRun(status: Int32(fields[0]) ?? -1, wall: Double(fields[1]) ?? 0, cpu: Double(fields[2]) ?? 0, peakKiB: Int(fields[3]) ?? 0)
}

/// `abconsole-bench --child REPORT STDIN STDOUT STDERR PATH ARGS...`: runs one child and writes
/// "status wall cpu peakKiB" to REPORT.
func runChildMode(_ arguments: [String]) -> Never {
    guard arguments.count >= 5 else { exit(64) }
    let run = directSpawn(arguments[4], Array(arguments.dropFirst(5)), stdin: arguments[1], stdout: arguments[2], stderr: arguments[3])
    let text = "\(run.status) \(run.wall) \(run.cpu) \(run.peakKiB)"
    exit(FileManager.default.createFile(atPath: arguments[0], contents: Data(text.utf8)) ? 0 : 74)
}

/// Runs `path` with `arguments` (stdin from `stdin`, stdout to `stdout`, stderr to `stderr`, each a
/// file path or /dev/null) and waits for it with `wait4`, which reports the child's rusage.
func directSpawn(_ path: String, _ arguments: [String], stdin: String = "/dev/null", stdout: String = "/dev/null",
           stderr: String = "/dev/null", environment: [String: String]? = nil) -> ChildRun {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, stdin, O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, stdout, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    posix_spawn_file_actions_addopen(&actions, 2, stderr, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    let argv = ([path] + arguments).map { strdup($0) } + [nil]
    let env = (environment ?? ProcessInfo.processInfo.environment).map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer {
        argv.forEach { free($0) }
        env.forEach { free($0) }
    }
    var pid: pid_t = 0
    let start = Clock.wall()
    let spawned = posix_spawn(&pid, path, &actions, nil, argv, env)
    guard spawned == 0 else { return ChildRun(status: -1, wall: 0, cpu: 0, peakKiB: 0) }
    var status: Int32 = 0
    var usage = rusage()
    while wait4(pid, &status, 0, &usage) < 0, errno == EINTR {}
    let wall = Clock.wall() - start
    let cpu = Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) * 1e-6
        + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) * 1e-6
    let exit = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
    return ChildRun(status: exit, wall: wall, cpu: cpu, peakKiB: usage.ru_maxrss)
}

/// The first line a command prints (for python3 probes), or nil when it fails.
func capture(_ path: String, _ arguments: [String], in directory: String, environment: [String: String]? = nil) -> String? {
    let output = directory + "/capture-\(UInt32.random(in: 0...UInt32.max)).txt"
    defer { unlink(output) }
    let run = directSpawn(path, arguments, stdout: output, environment: environment)
    guard run.status == 0, let data = FileManager.default.contents(atPath: output) else { return nil }
    return String(decoding: data, as: UTF8.self)
}

/// The absolute path of `name` on $PATH.
func which(_ name: String) -> String? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    return path.split(separator: ":").map { "\($0)/\(name)" }.first { access($0, X_OK) == 0 }
}
