import Foundation

exit(runCommandLine(Array(CommandLine.arguments.dropFirst()), environment: ProcessInfo.processInfo.environment))
