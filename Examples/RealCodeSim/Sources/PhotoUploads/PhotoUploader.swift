// Photo uploads handed to a background URL session, written as photo and cloud-drive apps
// write them (Proton Drive's iOS app, for one, hands its uploads to the system): the session is
// made once, at launch, with a background configuration and the uploader as its delegate; each
// photo is written to a file and handed over with `uploadTask(with:fromFile:)` as the user
// leaves the app, inside a `beginBackgroundTask` so that the hand-over finishes; the delegate
// counts what went, and calls the completion handler the system gave the app for the session's
// events once it hears `urlSessionDidFinishEvents`. Only the imports differ from an app's file.
#if os(iOS)
import Foundation
import UIKit
#else
import SimulatedBackgroundTasks
#endif

final class PhotoUploader: URLSessionTaskDelegate, @unchecked Sendable {
    static let sessionIdentifier = "com.example.photos.upload"
    /// The size of a photo.
    static let photoBytes = 4_000_000
    private let directory: URL
    /// Photos taken and not yet handed to the session.
    private var waiting: [URL] = []
    /// The handler the system gave the app for the session's events, until it is called.
    var eventsCompletionHandler: (@Sendable () -> Void)?

    private(set) lazy var session: URLSession = {
        let configuration = URLSessionConfiguration.background(withIdentifier: Self.sessionIdentifier)
        configuration.sessionSendsLaunchEvents = true
        configuration.isDiscretionary = false
        return URLSession(configuration: configuration, delegate: self, delegateQueue: nil)
    }()

    init() {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("realsim-photos", isDirectory: true)
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    /// The user took a photo: it is saved, to be uploaded as they leave the app.
    func photoTaken() {
        let taken = UserDefaults.standard.integer(forKey: "photosTaken") + 1
        UserDefaults.standard.set(taken, forKey: "photosTaken")
        let file = directory.appendingPathComponent("photo-\(taken)-\(UUID()).heic")   // unique across simulated phones
        _ = FileManager.default.createFile(atPath: file.path, contents: nil)
        try? FileHandle(forWritingTo: file).truncate(atOffset: UInt64(Self.photoBytes))
        waiting.append(file)
    }

    /// Hands every waiting photo to the session.
    func uploadWaitingPhotos() {
        for file in waiting {
            var request = URLRequest(url: URL(string: "https://drive.example.com/photos")!)
            request.httpMethod = "PUT"
            let task = session.uploadTask(with: request, fromFile: file)
            task.taskDescription = file.lastPathComponent
            task.resume()
        }
        waiting.removeAll()
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let key = error == nil ? "photosUploaded" : "photosFailed"
        UserDefaults.standard.set(UserDefaults.standard.integer(forKey: key) + 1, forKey: key)
        // The local copy is no longer needed (a failed photo would be taken again, in an app).
        if let name = task.taskDescription { try? FileManager.default.removeItem(at: directory.appendingPathComponent(name)) }
    }

    func urlSessionDidFinishEvents(forBackgroundURLSession session: URLSession) {
        eventsCompletionHandler?()
        eventsCompletionHandler = nil
    }
}
