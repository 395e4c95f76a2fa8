// A probe of one background-session task, written as app code: only its imports differ from
// an app's file.
#if os(iOS)
import Foundation
import UIKit
#else
import SimulatedBackgroundTasks
#endif

/// On its first launch by the user, starts one task of a background session — an upload of
/// `uploadBytes` from a file, or a download — and, with `cancelAfter`, cancels it that many
/// seconds later; keeps what its delegate hears.
final class TransferProbe: URLSessionDownloadDelegate, UIApplicationDelegate, @unchecked Sendable {
    let uploadBytes: Int?
    let cancelAfter: Int?
    let timeout: TimeInterval
    let journal: SharedJournal
    lazy var session: URLSession = {
        let configuration = URLSessionConfiguration.background(withIdentifier: "com.example.probe")
        configuration.timeoutIntervalForResource = timeout
        return URLSession(configuration: configuration, delegate: self, delegateQueue: nil)
    }()

    init(uploadBytes: Int?, cancelAfter: Int? = nil, timeout: TimeInterval = 7 * 24 * 3600, journal: SharedJournal) {
        self.uploadBytes = uploadBytes
        self.cancelAfter = cancelAfter
        self.timeout = timeout
        self.journal = journal
    }

    func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
        _ = session
        guard application.applicationState == .active, !UserDefaults.standard.bool(forKey: "started") else { return true }
        UserDefaults.standard.set(true, forKey: "started")
        let request = URLRequest(url: URL(string: "https://files.example.com/item")!)
        let task: URLSessionTask
        if let uploadBytes {
            // A negative size stands for a file that does not exist.
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("probe-\(UUID()).bin")
            if uploadBytes >= 0 { try? Data(count: uploadBytes).write(to: file) }
            task = session.uploadTask(with: request, fromFile: file)
        } else {
            task = session.downloadTask(with: request)
        }
        task.resume()
        let journal = self.journal, session = self.session
        Task { journal.lines.append("tasks \(await session.allTasks.count)") }
        if let cancelAfter {
            Task {
                try await Task.sleep(for: .seconds(cancelAfter))
                task.cancel()
            }
        }
        return true
    }

    func urlSession(_ session: URLSession, downloadTask: URLSessionDownloadTask, didFinishDownloadingTo location: URL) {
        let text = (try? String(contentsOf: location, encoding: .utf8)) ?? "unreadable"
        journal.lines.append("downloaded \(text)")
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let code = (error as? URLError)?.code
        let forceQuit = (error as? URLError)?.userInfo[NSURLErrorBackgroundTaskCancelledReasonKey] != nil
        journal.lines.append(code.map { "failed \($0 == .cancelled ? "cancelled" : $0 == .timedOut ? "timedOut" : "\($0.rawValue)")\(forceQuit ? " by a force-quit" : "")" }
                             ?? "completed \((task.response as? HTTPURLResponse)?.statusCode ?? 0)")
    }
}
