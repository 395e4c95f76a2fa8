import SimKernel

/// One unit of work: bytes to send and receive and CPU time to spend, from its creation to its
/// deadline.
struct WorkItem: Sendable, Equatable {
    /// When the item was created.
    var created: SimInstant
    /// When it fails if unfinished; `.distantFuture` for never.
    var deadline: SimInstant
    /// What is left to do, in order: CPU, then upload, then download.
    var cpuSeconds: Double
    var uploadBytes: Double
    var downloadBytes: Double
    /// The original amounts, for restarting a non-resumable item.
    var totalCPUSeconds: Double
    var totalUploadBytes: Double
    var totalDownloadBytes: Double
    /// The policy's label for the item (an index into the engine's labels); 0 for none.
    var label: UInt16 = 0
    /// Cover traffic (``WorkRequest/isCover``): counted apart from the real work.
    var isCover = false
    /// The number of the app's own background-session task this item is the transfer of
    /// (SimulatedBackgroundTasks' `URLSessionUploadTask` and `URLSessionDownloadTask`); 0 for
    /// every other item.
    var appTransfer: UInt32 = 0

    init(created: SimInstant, deadline: SimInstant, cpuSeconds: Double, uploadBytes: Double, downloadBytes: Double) {
        self.created = created
        self.deadline = deadline
        self.cpuSeconds = cpuSeconds
        self.uploadBytes = uploadBytes
        self.downloadBytes = downloadBytes
        totalCPUSeconds = cpuSeconds
        totalUploadBytes = uploadBytes
        totalDownloadBytes = downloadBytes
    }

    /// Whether the item needs the network.
    var needsNetwork: Bool { uploadBytes > 0 || downloadBytes > 0 }

    /// Seconds to finish at the given rates (bytes per second); +∞ if a needed rate is zero.
    func remainingSeconds(uploadRate: Double, downloadRate: Double) -> Double {
        var seconds = cpuSeconds
        if uploadBytes > 0 { seconds += uploadRate > 0 ? uploadBytes / uploadRate : .infinity }
        if downloadBytes > 0 { seconds += downloadRate > 0 ? downloadBytes / downloadRate : .infinity }
        return seconds
    }

    /// Works on the item for up to `seconds` at the given rates and returns the seconds used
    /// (less than given if the item finished).
    mutating func work(for seconds: Double, uploadRate: Double, downloadRate: Double) -> Double {
        var left = seconds
        let cpu = Swift.min(cpuSeconds, left)
        cpuSeconds -= cpu
        left -= cpu
        if left > 0 && uploadBytes > 0 && uploadRate > 0 {
            let sent = Swift.min(uploadBytes, left * uploadRate)
            uploadBytes -= sent
            left -= sent / uploadRate
        }
        if left > 0 && uploadBytes <= 0 && downloadBytes > 0 && downloadRate > 0 {
            let received = Swift.min(downloadBytes, left * downloadRate)
            downloadBytes -= received
            left -= received / downloadRate
        }
        // Snap what floating point leaves behind.
        if cpuSeconds < 1e-9 { cpuSeconds = 0 }
        if uploadBytes < 1e-6 { uploadBytes = 0 }
        if downloadBytes < 1e-6 { downloadBytes = 0 }
        return seconds - Swift.max(0, left)
    }

    var isDone: Bool { cpuSeconds == 0 && uploadBytes == 0 && downloadBytes == 0 }

    /// Loses the progress made (a non-resumable item interrupted).
    mutating func restart() {
        cpuSeconds = totalCPUSeconds
        uploadBytes = totalUploadBytes
        downloadBytes = totalDownloadBytes
    }
}
