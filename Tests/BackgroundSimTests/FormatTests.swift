@testable import BackgroundSim
import Testing

@Suite("Formatting numbers and tables")
struct FormatTests {
    @Test("three significant figures for reports, plain numbers for messages")
    func numbers() {
        #expect(Format.significant(30.368197) == "30.4")
        #expect(Format.significant(0.00151234) == "0.00151")
        #expect(Format.significant(4821.3) == "4821")
        #expect(Format.signed(1.45) == "+1.45")
        #expect(Format.number(30.368197) == "30.368")
        #expect(Format.number(48) == "48")
        #expect(Format.significant(1e300) == "1e+300", "no trap beyond UInt64")
    }

    @Test("a table column is padded, never cut, and never runs into the next")
    func columns() {
        #expect("ab".column(5) == "ab   ")
        #expect("iPhone 16 Pro Max".column(10) == "iPhone 16 Pro Max  ")
        #expect("abcd".column(5) == "abcd  ", "one space would be too few")
    }
}
