// Photo uploads handed to a background URL session, written as apps write them: a session made
// once with a background configuration and the uploader as its delegate; each photo written to
// a file and uploaded with `uploadTask(with:fromFile:)`; the app delegate keeping the completion
// handler that `handleEventsForBackgroundURLSession` gives it, and calling it when the session's
// delegate hears `urlSessionDidFinishEvents`. Only the imports differ from the app's file.
#if os(iOS)
import Foundation
import UIKit
#else
import SimulatedBackgroundTasks
#endif

final class PhotoUploader: URLSessionTaskDelegate, @unchecked Sendable {
    static let sessionIdentifier = "com.example.photos.upload"
    let photoBytes: Int
    let directory: URL
    let journal: @Sendable (String) -> Void
    /// The handler the system gave the app for the session's events, until it is called.
    var eventsCompletionHandler: (@Sendable () -> Void)?

    lazy var session: URLSession = {
        let configuration = URLSessionConfiguration.background(withIdentifier: Self.sessionIdentifier)
        configuration.sessionSendsLaunchEvents = true
        return URLSession(configuration: configuration, delegate: self, delegateQueue: nil)
    }()

    init(photoBytes: Int, directory: URL, journal: @escaping @Sendable (String) -> Void) {
        self.photoBytes = photoBytes
        self.directory = directory
        self.journal = journal
    }

    /// The user took a photo: write it, and hand its upload to the system.
    func upload(photo number: Int) {
        let file = directory.appendingPathComponent("photo-\(number)-\(UUID()).jpg")   // one file per photo, whichever run took it
        // A photo of `photoBytes` (a sparse file: its bytes are not the point).
        _ = FileManager.default.createFile(atPath: file.path, contents: nil)
        try? FileHandle(forWritingTo: file).truncate(atOffset: UInt64(photoBytes))
        var request = URLRequest(url: URL(string: "https://photos.example.com/upload")!)
        request.httpMethod = "PUT"
        let task = session.uploadTask(with: request, fromFile: file)
        task.taskDescription = "photo-\(number)"
        task.resume()
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let outcome: String
        if let error = error as? URLError {
            outcome = error.code == .cancelled && error.userInfo[NSURLErrorBackgroundTaskCancelledReasonKey] != nil
                ? "cancelled by a force-quit" : "failed: \(error.code.rawValue)"
        } else {
            outcome = "uploaded, status \((task.response as? HTTPURLResponse)?.statusCode ?? 0)"
        }
        journal("\(task.taskDescription ?? "?") \(outcome)")
    }

    func urlSessionDidFinishEvents(forBackgroundURLSession session: URLSession) {
        journal("events finished")
        eventsCompletionHandler?()
        eventsCompletionHandler = nil
    }
}

final class PhotoAppDelegate: UIApplicationDelegate {
    let uploader: PhotoUploader

    init(uploader: PhotoUploader) {
        self.uploader = uploader
    }

    func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
        _ = uploader.session   // make the session at launch, so it hears of earlier uploads
        if application.applicationState == .active { takePhotos() }
        return true
    }

    func applicationWillEnterForeground(_ application: UIApplication) {
        takePhotos()
    }

    func application(_ application: UIApplication, handleEventsForBackgroundURLSession identifier: String,
                     completionHandler: @escaping @Sendable () -> Void) {
        uploader.journal("events for \(identifier)")
        uploader.eventsCompletionHandler = completionHandler
        _ = uploader.session
    }

    /// Each time the user opens the app, they take two photos.
    private func takePhotos() {
        let taken = UserDefaults.standard.integer(forKey: "photosTaken")
        for number in taken + 1...taken + 2 { uploader.upload(photo: number) }
        UserDefaults.standard.set(taken + 2, forKey: "photosTaken")
    }
}
