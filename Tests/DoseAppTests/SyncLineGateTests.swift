import DoseApp
import DoseCore
import Foundation
import Testing

/// The forms another device's line must have before anything of it is written: a stamp of fixed
/// widths and digits naming its device, ids as the journal writes them (DESIGN §10).
@Suite struct SyncLineGateTests {
    static let device = "0123456789abcdef"

    static func take(stamp: String = "1795302300000-00001-" + device, id: String = "6f1c0b6e-2f0a-4c1e-9a7b-0c2d3e4f5a6b") -> SyncOperation {
        var op = SyncOperation(kind: .take, medicine: "9a0b1c2d-3e4f-4a5b-8c6d-7e8f9a0b1c2d")
        op.id = id; op.device = device; op.stamp = stamp
        op.day = "2026-11-22"; op.slot = "08:00"; op.at = 1_795_302_000; op.units = 1
        return op
    }

    @Test("a well-formed take passes; a stamp that is not 13 digits, '-', 5 digits, '-', its device is refused")
    func stamps() {
        #expect(Self.take().refusal() == nil)
        #expect(SyncOperation.stampMillis("1795302300000-00001-" + Self.device, device: Self.device) == 1_795_302_300_000)
        for stamp in ["~", "5-00000-" + Self.device, "9223372036854775807-00000-" + Self.device, "1795302300000-000001-" + Self.device,
                      "1795302300000-0000a-" + Self.device, "17953023000000-0000-" + Self.device, "1795302300000-00001-fedcba9876543210",
                      "1795302300000-00001-" + Self.device + "x", "+795302300000-00001-" + Self.device, ""] {
            #expect(SyncOperation.stampMillis(stamp, device: Self.device) == nil, "\(stamp)")
            #expect(Self.take(stamp: stamp).refusal()?.hasPrefix("stamp") == true, "\(stamp)")
        }
    }

    @Test("an operation id is a lowercase UUID, as the journal writes it")
    func ids() {
        for id in ["1", "", UUID().uuidString, "6f1c0b6e2f0a4c1e9a7b0c2d3e4f5a6b", "6f1c0b6e-2f0a-4c1e-9a7b-0c2d3e4f5a6g",
                   "../../6f1c0b6e-2f0a-4c1e-9a7b-0c2d3e4f5a6"] {
            #expect(Self.take(id: id).refusal()?.hasPrefix("id") == true, "\(id)")
        }
        #expect(Self.take(id: UUID().uuidString.lowercased()).refusal() == nil)
    }

    @Test("a take's instant is judged against its own stamp: after it by more than an hour is refused, whatever this machine's clock")
    func instants() {
        var op = Self.take()
        op.at = 1_795_302_300 + 3_600
        #expect(op.refusal() == nil)
        op.at = 1_795_302_300 + 3_601
        #expect(op.refusal() != nil)
        for at in [-1e300, 1e300, -1, .infinity] {
            op.at = at
            #expect(op.refusal()?.hasPrefix("at") == true, "\(at)")
        }
        op = Self.take(); op.day = "2026-11-25"
        #expect(op.refusal()?.hasPrefix("day") == true, "a slot days after the dose was taken")
        op = Self.take(); op.slot = "25:00"
        #expect(op.refusal()?.contains("25:00") == true)
        op = Self.take(); op.units = 0
        #expect(op.refusal() == nil, "0 units: an imported dose")
    }

    @Test("amounts: a fraction to hundredths passes and is written as 0.5 (a whole one as 1); more decimals, negative or huge are refused")
    func amounts() throws {
        let encoder = SyncOperation.lineEncoder()
        var op = Self.take(); op.units = DoseCore.Amount(hundredths: 50)
        let line = try op.line(encoder: encoder)
        #expect(line.hasSuffix("\"units\":0.5}"), "\(line)")
        #expect(try Self.take().line(encoder: encoder).hasSuffix("\"units\":1}"), "whole amounts stay integers for older devices")
        func withUnits(_ text: String) -> SyncOperation? {
            SyncOperation.parse(Substring(line.replacingOccurrences(of: "\"units\":0.5", with: "\"units\":" + text)))
        }
        for ok in ["0.5", "0.25", "9.75", "1", "2.50", "0.01"] {
            let parsed = try #require(withUnits(ok), "\(ok)")
            #expect(parsed.refusal() == nil, "\(ok): \(parsed.refusal() ?? "")")
        }
        #expect(withUnits("9.75")?.units == DoseCore.Amount(hundredths: 975))
        for bad in ["0.125", "0.001", "1e-3", "-0.5", "1e300", "1000000.01", "9223372036854775807"] {
            let parsed = try #require(withUnits(bad), "\(bad)")
            #expect(parsed.refusal()?.hasPrefix("units") == true, "\(bad): \(parsed.refusal() ?? "passed")")
        }
        #expect(withUnits("0.125")?.refusal()?.contains("two decimals") == true)
    }
}
