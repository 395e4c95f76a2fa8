import BackgroundSim

/// What the study files — sweeps, tunings — share at their top level.
enum StudyFile {
    /// Parses `text` as a JSON object whose keys are all in `known`.
    ///
    /// - Throws: ``ScenarioError`` naming `source`: not JSON, not an object, or an unknown key
    ///   (with the closest known one when it looks like a typo).
    static func object(_ text: String, source: String, known: [String]) throws(ScenarioError) -> JSONValue {
        func fail(_ path: String, _ message: String) -> ScenarioError {
            ScenarioError(source: source, issues: [ScenarioIssue(path: path, message: message)])
        }
        let document: JSONValue
        do {
            document = try JSONParser.parse(text)
        } catch {
            throw fail("", "not valid JSON: \(error)")
        }
        guard case .object(let members) = document else { throw fail("", "expected an object at the top level") }
        for member in members where !known.contains(member.key) {
            let suggestion = ScenarioLoader.closest(to: member.key, among: known).map { "; did you mean \"\($0)\"?" } ?? ""
            throw fail(member.key, "unknown key" + suggestion)
        }
        return document
    }
}
