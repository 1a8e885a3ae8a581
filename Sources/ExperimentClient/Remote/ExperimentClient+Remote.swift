import ExperimentCore
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension ExperimentClient {
    /// Asks `abconsole serve` (or any OFREP server) at `server` for every experiment's answer for
    /// `context` (`POST /ofrep/v1/evaluate/flags`), and answers from them from then on (remote mode).
    ///
    /// The app gets its own variants only: no weights, no whitelists. `value(for:)` answers from
    /// them as from a snapshot, with the same defaults, reports and overrides; a key the server
    /// does not serve (a draft, an experiment it does not know) gets the app's default. The answers
    /// are saved beside the cache file with their `ETag`, read back at the next launch, and sent
    /// as `If-None-Match` when the same context is asked again: a `304` changes nothing. Any
    /// failure keeps the answers (or snapshot) in use, is reported once per kind and is thrown;
    /// the deadline and byte cap are `refresh(from:)`'s.
    ///
    /// - Parameters:
    ///   - server: the server's base URL (`https://flags.example.com`); the endpoint's path is added.
    ///   - token: sent as `Authorization: Bearer TOKEN` when the server has tokens.
    @discardableResult
    public func refresh(fromServer server: URL, context: EvaluationContext, token: String? = nil, timeout: TimeInterval = 30,
                        maxBytes: Int = ExperimentClient.defaultMaxSnapshotBytes) async throws(RefreshError) -> RefreshOutcome {
        let url = server.appendingPathComponent("ofrep/v1/evaluate/flags")
        let endpoint = url.absoluteString
        let current = lock.withLock { state.remote }
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: timeout)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        request.httpBody = (try? JSONEncoder().encode(["context": context])) ?? Data(#"{"context":{}}"#.utf8)
        if let current, current.endpoint == endpoint, current.context == context {
            current.validators.apply(to: &request)
        }
        do throws(RefreshError) {
            switch try await SnapshotFetcher.conditional(request, deadline: timeout, maxBytes: maxBytes) {
            case .notModified:
                return .notModified
            case .body(let data, let validators):
                guard let answers = RemoteAnswers.decode(data, endpoint: endpoint, context: context, validators: validators) else {
                    throw RefreshError(url: endpoint, kind: .notASnapshot(reason: "the answer is not an OFREP bulk evaluation (`{\"flags\":[…]}`)"))
                }
                let changed = replacementLock.withLock { install(answers) }
                return current?.flags == answers.flags ? .unchanged : .replaced(changed: changed)
            }
        } catch {
            deliver(lock.withLock { fresh([.refreshFailed(error)]) })
            throw error
        }
    }

    /// Saves `answers` beside the cache and swaps them in (the replacement lock held); a snapshot
    /// cached before is removed first, so the next launch starts from what the client used last.
    func install(_ answers: RemoteAnswers) -> Set<String> {
        var reports: [ClientReport] = []
        delivery.restored = true
        delivery.origin = nil
        if let cacheURL {
            let file = RemoteAnswers.cacheURL(cacheURL)
            try? FileManager.default.removeItem(at: DeliveryState.etagURL(cacheURL))
            try? FileManager.default.removeItem(at: cacheURL)
            do {
                try answers.encoded().write(to: file, options: .atomic)
            } catch {
                reports.append(.cacheNotWritten(path: file.path, reason: FileErrorReason.of(error, path: file.path)))
            }
        }
        return mutate(reports: reports) {
            $0.remote = answers
            $0.snapshot = nil
        }
    }
}
