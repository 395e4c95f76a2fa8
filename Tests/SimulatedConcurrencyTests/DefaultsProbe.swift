// An app that keeps its settings in UserDefaults as apps do — a dictionary of mixed values, an
// array of numbers, registered defaults — and, on its third launch, tries to store a value
// that is not a property list. Only the imports differ from the app's file.
#if os(iOS)
import Foundation
import UIKit
#else
import SimulatedBackgroundTasks
#endif

struct NotAPropertyList {
    var value = 1
}

final class DefaultsProbeDelegate: UIApplicationDelegate {
    let journal: SharedJournal

    init(_ journal: SharedJournal) {
        self.journal = journal
    }

    func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
        let defaults = UserDefaults.standard
        defaults.register(defaults: ["syncEnabled": true, "launches": 0])
        let launches = defaults.integer(forKey: "launches") + 1
        defaults.set(launches, forKey: "launches")
        if launches == 1 {
            journal.lines.append("registered \(defaults.bool(forKey: "syncEnabled"))")
            defaults.set(["server": "eu", "retries": 3, "weights": [0.5, 1.5], "since": Date(timeIntervalSince1970: 1_000)] as [String: Any],
                         forKey: "settings")
            defaults.set([1, 2, 3], forKey: "numbers")
        } else if launches == 2 {
            let settings = defaults.dictionary(forKey: "settings") ?? [:]
            let since = (settings["since"] as? Date)?.timeIntervalSince1970 ?? -1
            journal.lines.append("settings \(settings["server"] as? String ?? "?") \(settings["retries"] as? Int ?? -1) "
                                 + "\(settings["weights"] as? [Double] ?? []) \(since)")
            journal.lines.append("numbers \(defaults.array(forKey: "numbers") as? [Int] ?? [])")
        } else if launches == 3 {
            defaults.set(NotAPropertyList(), forKey: "bad")
            journal.lines.append("stored the bad value")
        } else if launches == 4 {
            journal.lines.append("bad \(defaults.object(forKey: "bad") == nil ? "absent" : "present")")
        }
        return true
    }
}
