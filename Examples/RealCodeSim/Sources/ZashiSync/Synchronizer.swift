#if os(iOS)
import Foundation
import UIKit
#else
import SimulatedBackgroundTasks
#endif

/// Keeps the wallet up to the chain's tip: downloads the blocks it has not scanned, from the
/// light wallet server, a batch at a time. It needs the wallet's keys, read from the keychain.
public final class Synchronizer: @unchecked Sendable {
    static let syncedHeightKey = "wallet.syncedHeight"
    /// Blocks a request asks for at most.
    static let batchSize = 100
    /// The chain's block time, in seconds: how long to wait at the tip for the next block.
    static let blockSeconds: UInt64 = 75

    let service: LightWalletService
    let keychain: SeedKeychain
    private(set) var isPrepared = false
    private var running: Task<Void, Never>?
    /// Whether the sync in progress follows the chain (the foreground's) rather than syncing once.
    private var isFollowing = false

    public init(service: LightWalletService = LightWalletService(), keychain: SeedKeychain = SeedKeychain()) {
        self.service = service
        self.keychain = keychain
    }

    /// Reads the keys; fails (and the synchronizer stays unprepared) while the phone is locked.
    func prepare() {
        isPrepared = (try? keychain.readSeed()) != nil
    }

    /// Syncs to the tip, then follows the chain, block by block, until stopped (in the
    /// foreground). A sync in progress for a background task gives way to it, and does not
    /// report catching up.
    func start() {
        guard isPrepared, !isFollowing else { return }
        running?.cancel()
        isFollowing = true
        running = Task { [self] in
            while !Task.isCancelled {
                guard (try? await catchUp()) != nil else { break }
                try? await Task.sleep(nanoseconds: Self.blockSeconds * 1_000_000_000)
            }
        }
    }

    /// Syncs to the tip once, then calls `caughtUp` (in a background task).
    func syncOnce(caughtUp: @escaping @Sendable () -> Void) {
        guard running == nil else { return }
        running = Task { [self] in
            if (try? await catchUp()) != nil, !Task.isCancelled {
                running = nil
                caughtUp()
            }
        }
    }

    func stop() {
        running?.cancel()
        running = nil
        isFollowing = false
    }

    /// Downloads the blocks between the last scanned and the tip.
    private func catchUp() async throws {
        while true {
            let synced = UserDefaults.standard.integer(forKey: Self.syncedHeightKey)
            let tip = try await service.latestHeight()
            guard synced < tip else { return }
            let last = Swift.min(tip, synced + Self.batchSize)
            try await service.downloadBlocks(from: synced + 1, to: last)
            try Task.checkCancellation()
            UserDefaults.standard.set(last, forKey: Self.syncedHeightKey)
        }
    }
}

/// The wallet's seed in the keychain, readable only while the phone is unlocked
/// (`kSecAttrAccessibleWhenUnlocked`): a read while it is locked fails, as
/// `SecItemCopyMatching` does with `errSecInteractionNotAllowed`.
public struct SeedKeychain: Sendable {
    public struct InteractionNotAllowed: Error {}

    public init() {}

    func readSeed() throws -> Data {
        guard UIApplication.shared.isProtectedDataAvailable else { throw InteractionNotAllowed() }
        return Data(repeating: 7, count: 32)
    }
}

/// The light wallet server: the chain's tip and its compact blocks.
public struct LightWalletService: Sendable {
    static let host = "https://lightwalletd.example"

    public init() {}

    func latestHeight() async throws -> Int {
        let (data, _) = try await URLSession.shared.data(from: URL(string: "\(Self.host)/latest")!)
        return Int(String(decoding: data, as: UTF8.self)) ?? 0
    }

    func downloadBlocks(from first: Int, to last: Int) async throws {
        _ = try await URLSession.shared.data(from: URL(string: "\(Self.host)/blocks?from=\(first)&to=\(last)")!)
    }
}
