import DoseCore
import DoseRuntime
import Foundation

/// One file of the shared directory and what it should contain.
public struct ExportFile: Hashable, Sendable {
    /// File name inside the shared directory, e.g. `waybar.json`.
    public var name: String
    /// Full content, ending in a newline.
    public var contents: String

    /// A file named `name` with `contents`.
    public init(name: String, contents: String) { self.name = name; self.contents = contents }
}

/// Turns a timeline into every file of the shared directory (DESIGN §4) and writes the
/// ones that changed.
public struct Exporter: Sendable {
    /// Icons, colours and templates for the bar outputs.
    public var options: RenderOptions

    /// An exporter rendering with `options`.
    public init(options: RenderOptions = RenderOptions()) { self.options = options }

    /// Every file name the shared directory holds, in writing order: `timeline.json`, then each
    /// registered format's (`OutputFormat.all`).
    public static let fileNames: [String] = ["timeline.json"] + OutputFormat.all.map(\.fileName)

    /// The rendering of `snapshot` in `format`, without a trailing newline: one line for
    /// every format but `conky` (a head line plus one per dose) and `i3blocks` (three lines).
    /// `json` is the snapshot object on one line. This is what `dosebar status --format` prints.
    public func render(_ format: OutputFormat, _ snapshot: Snapshot) -> String {
        format.render(snapshot, options: options)
    }

    /// The contents of every shared file for `timeline` at instant `now` (pure: no I/O).
    /// `snapshot.*` and the bar files show the entry in force at `now`.
    /// Throws `DosebarError.internal` for a timeline without entries, or whose entries do
    /// not share one day's slots (`TimelineJSON`).
    public func files(for timeline: Timeline, now: Date) throws -> [ExportFile] {
        let others = try snapshotFiles(for: timeline, now: now)
        let timelineJSON = try TimelineJSON.text(timeline, words: options.catalog, icons: options.icons)
        return [ExportFile(name: "timeline.json", contents: timelineJSON + "\n")] + others
    }

    /// Every file but `timeline.json`.
    private func snapshotFiles(for timeline: Timeline, now: Date) throws -> [ExportFile] {
        guard let current = timeline.entry(at: now) else {
            throw DosebarError.internal("the timeline of \(timeline.day) has no entries")
        }
        return OutputFormat.all.map { ExportFile(name: $0.fileName, contents: render($0, current) + "\n") }
    }

    /// What one export did.
    public struct Outcome: Equatable, Sendable {
        /// The names of the files rewritten, in writing order (empty when nothing changed).
        public var changed: [String] = []
        /// One line for each file left alone because something dosebar did not write is in its
        /// place (a symlink, a FIFO, a directory, another user's file); the others were written.
        public var leftAlone: [String] = []
    }

    /// Prepares `directory` and writes every file of `timeline` at `now` whose content
    /// changed. Returns the names of the files rewritten (empty when nothing changed).
    /// Throws `DosebarError.config` for an unsafe directory or when a file had to be left
    /// alone (after writing the others), `.io` when writing fails.
    @discardableResult
    public func export(_ timeline: Timeline, now: Date, to directory: SharedDirectory) throws -> [String] {
        let outcome = try write(timeline, now: now, to: directory)
        if !outcome.leftAlone.isEmpty { throw DosebarError.config(outcome.leftAlone.joined(separator: "; ")) }
        return outcome.changed
    }

    /// `export`, reporting the files left alone instead of throwing for them: a symlink a user
    /// put in place of `waybar.json` does not keep `tmux.txt` from being current. `prepared`: the
    /// caller has just run `directory.prepare()` (the export lock does), so it is not run twice.
    public func write(_ timeline: Timeline, now: Date, to directory: SharedDirectory, prepared: Bool = false,
                      concurrent: Bool = false) throws -> Outcome {
        // A command (a bar click) renders the bar files on the other core while this one builds
        // timeline.json; both are done before the first file is written.
        let rendering = concurrent ? Parallel.Background { [self] in Result { try snapshotFiles(for: timeline, now: now) } } : nil
        var others = rendering == nil ? try snapshotFiles(for: timeline, now: now) : []
        // The timeline can be megabytes: written from the JSON's own bytes, not via a String.
        let timelineJSON = try TimelineJSON.object(timeline, words: options.catalog, icons: options.icons).withUTF8 { json in
            var bytes = [UInt8]()
            bytes.reserveCapacity(json.count + 1)
            bytes.append(contentsOf: json)
            bytes.append(UInt8(ascii: "\n"))
            return bytes
        }
        if let rendering { others = try rendering.result().get() }
        if !prepared { try directory.prepare() }
        var outcome = Outcome()
        func record(_ name: String, _ update: SharedDirectory.Update) {
            switch update {
            case .written: outcome.changed.append(name)
            case .unchanged: break
            case .leftAlone(let message): outcome.leftAlone.append(message)
            }
        }
        try directory.updating { batch in
            record("timeline.json", try timelineJSON.withUnsafeBytes { try batch.update(name: "timeline.json", bytes: $0) })
            for file in others {
                var contents = file.contents
                record(file.name, try contents.withUTF8 { try batch.update(name: file.name, bytes: UnsafeRawBufferPointer($0)) })
            }
        }
        return outcome
    }
}
