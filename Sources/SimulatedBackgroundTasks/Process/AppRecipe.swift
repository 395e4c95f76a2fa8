import BackgroundSim

/// What makes the app's code at each launch: its delegate, its SwiftUI scene's background-task
/// actions, and what the servers its requests reach answer.
struct AppRecipe {
    let makeDelegate: () -> any UIApplicationDelegate
    let makeScene: () -> BackgroundTaskScene
    let server: SimulatedServer
}
