@testable import DoseApp
import Testing

/// The scanner reads what the decoder reads, or leaves the line to it.
@Suite("Sync: a device's line read without JSONDecoder")
struct SyncLineScannerTests {
    static let take = #"{"at":1217980020,"day":"2008-08-06","device":"897a3e4c269848a3","id":"29df8a43-7014-424d-8f7c-c58bbab475c7","kind":"take","medicine":"fccc5a97-9dd1-45ed-8822-dd9b2dce2b20","slot":"08:30","stamp":"1795144200000-49999-897a3e4c269848a3","units":1}"#

    static let lines = [
        take,
        #"{"at":1217980020.25,"day":"2008-08-06","device":"d","id":"i","kind":"skip","medicine":"m","stamp":"s","time_known":false}"#,
        #"{"device":"d","id":"i","kind":"add","low_days":7,"medicine":"m","name":"Aspirin","per_dose":-2,"stamp":"s"}"#,
        #"{"device":"d","id":"i","kind":"teleport","stamp":"s"}"#,
        // Left to the decoder: a nested schedule, a list, an escape, non-ASCII, whitespace, an exponent,
        // a leading zero, a duplicate or unknown field, null, a number of units that is not whole.
        #"{"device":"d","effective":"2006-11-20","id":"i","kind":"schedule","medicine":"m","schedule":{"kind":"daily","start":"2006-11-20","times":["08:00"],"window":7200},"stamp":"s"}"#,
        #"{"changed":["name"],"device":"d","id":"i","kind":"edit","medicine":"m","name":"B","stamp":"s"}"#,
        #"{"device":"d","id":"i","kind":"add","medicine":"m","name":"A \"B\"","stamp":"s"}"#,
        #"{"device":"d","id":"i","kind":"add","medicine":"m","name":"Vitamin D₃","stamp":"s"}"#,
        #"{"device": "d","id":"i","kind":"take","stamp":"s"}"#,
        #"{"at":1e9,"device":"d","id":"i","kind":"take","stamp":"s"}"#,
        #"{"device":"d","id":"i","kind":"take","stamp":"s","units":01}"#,
        #"{"device":"d","id":"i","kind":"take","kind":"skip","stamp":"s"}"#,
        #"{"device":"d","id":"i","kind":"take","stamp":"s","colour":"red"}"#,
        #"{"device":"d","id":"i","kind":"take","medicine":null,"stamp":"s"}"#,
        #"{"device":"d","id":"i","kind":"take","stamp":"s","units":1.5}"#,
        // Not operations at all.
        #"{"device":"d","id":"","kind":"take","stamp":"s"}"#,
        #"{"device":"d","id":"i","kind":"take","stamp":"s""#,
        #"{"device":"d","id":"i","kind":"take","stamp":"s"}x"#,
        "",
    ]

    @Test("every line reads the same as through the decoder, or is left to it")
    func sameAsDecoder() {
        for line in Self.lines {
            let scanned = Array(line.utf8).withUnsafeBytes { SyncLineScanner.operation($0) }
            if let scanned { #expect(scanned == SyncOperation.parse(Substring(line)), "\(line)") }
        }
        #expect(Array(Self.take.utf8).withUnsafeBytes { SyncLineScanner.operation($0) } != nil)
        #expect(Array(Self.lines[1].utf8).withUnsafeBytes { SyncLineScanner.operation($0) }?.timeKnown == false)
        for line in Self.lines[4...] {
            #expect(Array(line.utf8).withUnsafeBytes { SyncLineScanner.operation($0) } == nil, "\(line)")
        }
    }
}
