/// The parameters of ``BGSchedulerDesigned`` (the TestBGScheduler sample app); defaults from its
/// README (i336616/TestBGScheduler).
package struct BGSchedulerParameters: PolicyParameters {
    /// The defaults.
    package init() {}

    /// The refresh task's identifier. Default "com.Lmd64.TestBGScheduler.refresh".
    package var identifier = "com.Lmd64.TestBGScheduler.refresh"

    /// Earliest begin after backgrounding and between runs, in seconds. Default 60 (the sample);
    /// valid 1–86,400.
    package var intervalSeconds: Double = 60

    /// Operations per run. Default 3 (the sample); valid 1–100.
    package var operations = 3

    /// The length of each operation, in seconds. Default 2 (the sample); valid 0–300.
    package var operationSeconds: Double = 2

    package func validate(_ v: inout ParameterValidator) {
        v.require(!identifier.isEmpty, "identifier", "expected a task identifier")
        v.check(intervalSeconds, 1...86_400, "intervalSeconds")
        v.check(operations, 1...100, "operations")
        v.check(operationSeconds, 0...300, "operationSeconds")
    }
}
