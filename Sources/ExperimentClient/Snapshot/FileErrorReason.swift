#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif
import Foundation

/// Why a file operation failed, in the system's words (`Is a directory`), not Foundation's
/// "The operation could not be completed. (NSCocoaErrorDomain error 256.)".
enum FileErrorReason {
    static func of(_ error: any Error, path: String) -> String {
        if let kind = SnapshotFileKind.irregular(path) { return "it is \(kind)" }
        let error = error as NSError
        if error.domain == NSPOSIXErrorDomain { return ClientFiles.text(ofErrno: Int32(error.code)) }
        if let underlying = error.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return ClientFiles.text(ofErrno: Int32(underlying.code))
        }
        if error.domain == NSCocoaErrorDomain, let code = cocoaErrno[error.code] { return ClientFiles.text(ofErrno: code) }
        return error.localizedDescription
    }

    /// Foundation's file error codes that stand for one errno.
    private static let cocoaErrno: [Int: Int32] = [
        NSFileNoSuchFileError: ENOENT, NSFileReadNoSuchFileError: ENOENT, NSFileReadNoPermissionError: EACCES,
        NSFileWriteNoPermissionError: EACCES, NSFileWriteOutOfSpaceError: ENOSPC, NSFileWriteVolumeReadOnlyError: EROFS,
        NSFileWriteFileExistsError: EEXIST,
    ]
}
