// The app-process benchmark's probe, written as app code: it imports the simulated frameworks
// alone, as an app's file does.
import SimulatedBackgroundTasks

/// The probe: `calls` random draws, each a call the simulated system answers, at each launch and
/// each return to the foreground.
final class CallingDelegate: UIApplicationDelegate {
    let calls: Int

    init(calls: Int) {
        self.calls = calls
    }

    func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
        draw()
        return true
    }

    func applicationWillEnterForeground(_ application: UIApplication) {
        draw()
    }

    private func draw() {
        var sum = 0
        for _ in 0..<calls { sum &+= Int.random(in: 0...1_000) }
        UserDefaults.standard.set(sum, forKey: "sum")
    }
}
