/// The parameters of ``BGSchedulerDesigned`` (the TestBGScheduler sample app); defaults from its
/// README (i336616/TestBGScheduler).
package struct BGSchedulerParameters: PolicyParameters {
    /// The defaults.
    package init() {}

    /// The refresh task's identifier. Default "com.Lmd64.TestBGScheduler.refresh".
    package var identifier = "com.Lmd64.TestBGScheduler.refresh"

    /// Earliest begin after backgrounding and between runs, in seconds; the default is the sample's.
    package var intervalSeconds: Double = 60

    /// Operations per run; the default is the sample's.
    package var operations = 3

    /// The length of each operation, in seconds; the default is the sample's.
    package var operationSeconds: Double = 2

    package func validate(_ v: inout ParameterValidator) {
        v.require(!identifier.isEmpty, "identifier", "expected a task identifier")
    }
}

extension BGSchedulerParameters {
    package static let numberFields: [NumberField<BGSchedulerParameters>] = [
        NumberField("intervalSeconds", \.intervalSeconds, valid: 1...86_400),
        NumberField("operations", \.operations, valid: 1...100),
        NumberField("operationSeconds", \.operationSeconds, valid: 0...300),
    ]
}
