import DoseCore
import DoseExport
import DoseFiles
import DoseRuntime
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The devices' files in `DIR/dosebar`: each device appends to its own `DEVICE.jsonl` and only
/// reads the others, so Syncthing never sees two writers of one file.
public struct SyncFolder: Sendable {
    /// `DIR/dosebar`.
    public let path: String

    public init(shared dir: String) { path = dir + "/dosebar" }

    public func file(of device: String) -> String { path + "/" + device + ".jsonl" }

    /// Creates the folder (and `DIR`), private to the user.
    public func create() throws {
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        } catch {
            throw DosebarError.io("\(path): cannot create the sync folder (\((error as NSError).localizedDescription))")
        }
    }

    /// Appends whole lines to this device's file under an exclusive lock and fsyncs it. `lines`
    /// and then `appended` run under the lock (so two processes never append the same lines).
    /// A torn last line (a crash mid-append) is ended first, so it stays one bad line.
    public func append(device: String, _ lines: () throws -> [String], appended: () throws -> Void) throws {
        let name = file(of: device)
        // Never through a link (Syncthing carries symlinks: one in the place of this file would make
        // dosebar append to wherever it points), and never a FIFO (an open for writing would block).
        let fd = try Self.lockedForAppend(name)
        defer { close(fd) }
        let lines = try lines()
        guard !lines.isEmpty else { return }
        let text = lines.joined(separator: "\n") + "\n"
        // A line is whole or absent (DESIGN §9): a tail torn by a process killed mid-write goes
        // first, the space is checked, and a write that fails is cut back to the last line end.
        let end = try Self.lastLineEnd(fd, name)
        var room = statvfs()
        if fstatvfs(fd, &room) == 0, UInt64(room.f_bavail) * UInt64(room.f_frsize) < UInt64(text.utf8.count) + 4096 {
            throw DosebarError.io("\(name): cannot write (the disk holding the sync folder is full); free some space and try again")
        }
        if let code = FileIO.writeAll(fd, text) {
            _ = ftruncate(fd, end)
            throw DosebarError.io("\(name): cannot write (\(FileIO.reason(code))); free some space and try again")
        }
        guard fsync(fd) == 0 else {
            let code = errno
            _ = ftruncate(fd, end)
            throw DosebarError.io("\(name): cannot sync to disk (\(FileIO.reason(code)))")
        }
        try appended()
    }

    /// The offset just past the file's last newline (0 when it has none), the file cut back to it
    /// when something follows it: a line a killed process left half-written is never read as one.
    static func lastLineEnd(_ fd: Int32, _ name: String) throws -> off_t {
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw DosebarError.io("\(name): cannot read (\(FileIO.reason(errno)))") }
        var end = info.st_size
        var buffer = [UInt8](repeating: 0, count: 4096)
        while end > 0 {
            let start = max(0, end - off_t(buffer.count))
            let count = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, Int(end - start), start) }
            // Opened to append only: a file that cannot be read back is left as it is.
            guard count == Int(end - start) else { return info.st_size }
            if let newline = buffer[0..<count].lastIndex(of: 0x0A) {
                end = start + off_t(newline) + 1
                break
            }
            end = start
        }
        if end < info.st_size, ftruncate(fd, end) != 0 {
            throw DosebarError.io("\(name): cannot cut a torn last line (\(FileIO.reason(errno)))")
        }
        return end
    }

    /// The other devices' files: `DEVICE.jsonl` (and Syncthing's conflict copies of them), never
    /// this device's own, nor Syncthing's temporary files (`.syncthing.*`).
    public func otherFiles(device: String) -> [(device: String, path: String)] {
        deviceFiles().filter { $0.device != device }
    }

    /// This device's own file and Syncthing's conflict copies of it
    /// (`DEVICE.sync-conflict-YYYYMMDD-HHMMSS-XXXXXXX.jsonl`): read only to check that every line in
    /// them is this machine's (``SyncService/checkOwnFiles(_:)``).
    public func ownFiles(device: String) -> [String] {
        deviceFiles().filter { $0.device == device }.map(\.path)
    }

    /// Whether `path` is a conflict copy Syncthing made of a device's file.
    public static func isConflictCopy(_ path: String) -> Bool {
        path.split(separator: "/").last.map { $0.contains(".sync-conflict-") } ?? false
    }

    /// Every device file of the folder with the device it belongs to (the name up to its first
    /// dot), sorted by name.
    private func deviceFiles() -> [(device: String, path: String)] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        return names.sorted().compactMap { name in
            guard name.hasSuffix(".jsonl"), !name.hasPrefix("."), !name.hasPrefix("~"),
                  let owner = name.split(separator: ".").first.map(String.init), !owner.isEmpty else { return nil }
            return (owner, path + "/" + name)
        }
    }

    /// Throws unless `fd` is a regular file.
    /// Another device's file opened for reading at `start`, nil when it does not exist: not
    /// through a link (it could point at any file of this user's), and not a FIFO, which would block
    /// the daemon (opened non-blocking, then checked to be a regular file). A `start` that is not
    /// just after a newline (the file was rewritten or shrank) becomes the file's start.
    static func openDeviceFile(_ file: String, at start: Position) throws -> (FileHandle, Position)? {
        let fd = open(file, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        guard fd >= 0 else {
            if errno == ENOENT { return nil }
            if errno == ELOOP { throw DosebarError.io("\(file): is a symbolic link; dosebar reads only device files (remove the link)") }
            throw DosebarError.io("\(file): cannot read it (check its permissions)")
        }
        let handle = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
        do { try requireRegular(fd, file) } catch { try? handle.close(); throw error }
        var from = start
        do {
            if from.offset > 0 {
                try handle.seek(toOffset: from.offset - 1)
                if try handle.read(upToCount: 1) != Data([0x0A]) { from = Position(); try handle.seek(toOffset: 0) }
            }
        } catch {
            from = Position()
            try? handle.seek(toOffset: 0)
        }
        return (handle, from)
    }

    static func requireRegular(_ fd: Int32, _ name: String) throws {
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw DosebarError.io("\(name): cannot inspect (\(FileIO.reason(errno)))") }
        guard st.st_mode & S_IFMT == S_IFREG else {
            throw DosebarError.io("\(name): is not a regular file; dosebar reads and writes device files only (remove it)")
        }
    }

    /// Where a read of a device's file stopped: the byte offset after the last whole line taken,
    /// and how many lines come before it (for the line numbers of warnings).
    public struct Position: Sendable, Equatable {
        public var offset: UInt64
        public var line: Int

        public init(offset: UInt64 = 0, line: Int = 0) { self.offset = offset; self.line = line }

        /// As kept in `meta`: `OFFSET:LINE`.
        public init?(_ text: String) {
            let parts = text.split(separator: ":")
            guard parts.count == 2, let o = UInt64(parts[0]), let l = Int(parts[1]) else { return nil }
            offset = o; line = l
        }

        public var text: String { "\(offset):\(line)" }
    }

    /// One operation read, with its line as written (stored as it is while the operation waits):
    /// a slice of the file's bytes, not a copy.
    public struct Line: Sendable {
        public let op: SyncOperation
        public var bytes: Data
        /// Its number in the file (from 1), for warnings and `sync status`.
        public var number: Int
        /// Where a read after it starts: a batch of lines applied keeps this as the file's position.
        public var next: Position
        /// ``LineHash`` of its bytes: the same id with other content is refused, and a skipped
        /// line is warned about once per content.
        public var hash: Int64
        /// Why the gate refuses it (``SyncOperation/refusal()``), nil when it passes. The gate reads
        /// the line alone, so it is asked as the line is made, while the lines are parsed on every
        /// core, rather than while they are applied on one (Benchmarks/README.md, "Measured reasons
        /// in the code"); no line exists without its answer.
        public let refusal: String?

        init(op: SyncOperation, bytes: Data, number: Int, next: Position, hash: Int64) {
            self.op = op
            self.bytes = bytes
            self.number = number
            self.next = next
            self.hash = hash
            refusal = op.refusal()
        }

        public var text: String { String(decoding: bytes, as: UTF8.self) }
    }

    /// A line that is not one of the device's operations (damaged, cut off, or another device's).
    public struct Problem: Sendable, Equatable {
        public var number: Int
        public var next: Position
        public var hash: Int64
        /// The operation's id, when the line is one (of another device).
        public var id: String?
        public var reason: String
    }

    /// What one read found, in file order.
    public struct Read: Sendable {
        public var lines: [Line]
        public var problems: [Problem]
        /// Where the next read starts: after the last whole line.
        public var next: Position
    }

    /// The whole lines of a file that are operations of `device`, after `start`; a last line
    /// without its newline (a file mid-sync) is left for the next read. A line that is not an
    /// operation is skipped, and one that claims another device is refused (only `device` writes
    /// its file): each with a warning naming the file and the line.
    ///
    /// Also returns where the next read may start: a device's file only grows (every version
    /// Syncthing delivers is a prefix of the newest), so the lines before it need no second look.
    /// A damaged line in the middle of a file stays damaged (the writer ends a torn line before it
    /// appends again), so the read goes on past it; a file shorter than `start`, or without a line
    /// end there, is read from its start.
    public static func read(_ file: String, device: String, from start: Position = Position(),
                            warn: (String) -> Void = { _ in },
                            progress: (_ done: Int, _ total: Int) -> Void = { _, _ in }) throws -> (lines: [Line], next: Position) {
        let read = try read(file, device: device, from: start, progress: progress)
        for p in read.problems { warn("\(file):\(p.number): \(p.reason); " + (p.id == nil ? "skipped" : "refused")) }
        return (read.lines, read.next)
    }

    /// ``read(_:device:from:warn:)`` with the lines that are not operations of `device` returned,
    /// not warned about (``SyncService`` warns once per content).
    public static func read(_ file: String, device: String, from start: Position) throws -> Read {
        try read(file, device: device, from: start) { _, _ in }
    }

    /// ``read(_:device:from:)``, telling `progress` the lines parsed so far and how many there
    /// are, every ``progressChunk`` lines.
    public static func read(_ file: String, device: String, from start: Position,
                            progress: (_ done: Int, _ total: Int) -> Void) throws -> Read {
        guard let (handle, from) = try openDeviceFile(file, at: start) else {
            return Read(lines: [], problems: [], next: Position())
        }
        defer { try? handle.close() }
        guard let data = try? handle.readToEnd() ?? Data() else {
            throw DosebarError.io("\(file): cannot read it (check its permissions)")
        }
        // Line ends found through the raw bytes: indexing `Data` byte by byte cost more than parsing
        // the lines. Each line is kept as a slice of `data`.
        var ends: [Int] = []
        data.withUnsafeBytes { bytes in
            var from = 0
            while let end = bytes[from...].firstIndex(of: 0x0A) { ends.append(end); from = end + 1 }
        }
        // A long file (another device's first) in chunks, each parsed on every core, so that the
        // parsing of hundreds of thousands of lines can be shown; the same lines in the same order.
        var lines: [Line] = [], problems: [Problem] = []
        var done = 0
        while done < ends.count {
            progress(done, ends.count)
            let chunk = parse(data, lineEnds: ends, range: done..<min(done + progressChunk, ends.count), device: device, from: from)
            lines += chunk.lines
            problems += chunk.problems
            done = min(done + progressChunk, ends.count)
        }
        progress(done, ends.count)
        let afterLast = Position(offset: from.offset + UInt64(ends.last.map { $0 + 1 } ?? 0), line: from.line + ends.count)
        return Read(lines: lines, problems: problems, next: afterLast)
    }

    /// ``read(_:device:from:)`` a batch at a time, so a long file (another device's first) is never
    /// held whole, nor its parsed operations: `body` gets up to `batch` lines (operations and
    /// problems; `concurrent`, the first ones an eighth, a quarter and a half of that) with the
    /// position after the last of them, in file order, at least once (an empty
    /// read when there is no whole line after `start`). `total` is told first: how many whole lines
    /// there are to read, found by reading the bytes after `start` once (`counting` is told how many
    /// of them are read, of how many, as that goes). Not `concurrent`: every line parsed on this
    /// thread. Returns where the next read starts.
    @discardableResult
    public static func read(_ file: String, device: String, from start: Position, batch: Int, concurrent: Bool = true,
                            counting: (_ bytes: Int, _ of: Int) -> Void = { _, _ in },
                            total: (Int) -> Void = { _ in }, _ body: (Read) throws -> Void) throws -> Position {
        guard let (handle, from) = try openDeviceFile(file, at: start) else {
            try body(Read(lines: [], problems: [], next: Position()))
            return Position()
        }
        defer { try? handle.close() }
        let fd = handle.fileDescriptor
        let chunk = 4 << 20
        func next() throws -> Data {
            do { return try handle.read(upToCount: chunk) ?? Data() } catch {
                throw DosebarError.io("\(file): cannot read it (check its permissions)")
            }
        }
        // The whole lines to come, counted first (for the progress), without keeping the bytes.
        var st = stat()
        let size = fstat(fd, &st) == 0 ? max(0, Int(st.st_size) - Int(from.offset)) : 0
        var lines = 0, counted = 0
        counting(0, size)
        while true {
            let data = try next()
            if data.isEmpty { break }
            counted += data.count
            counting(counted, max(size, counted))
            data.withUnsafeBytes { bytes in
                var i = 0
                while let end = Self.newline(in: bytes, from: i) { lines += 1; i = end + 1 }
            }
        }
        total(lines)
        try handle.seek(toOffset: from.offset)
        var pending = Data()
        var delivered = false
        var at = from
        var left = lines
        // A batch is parsed on another thread while `body` applies the one before (another
        // device's first file: parsing a batch on both cores and then applying it left one core
        // idle for most of the run).
        var parsing: Parallel.Background<Read>?
        defer { _ = parsing?.result() }
        // A batch parsed on another thread is let go on another thread once applied: freeing its
        // lines (some twenty strings each) would fall on the thread that applies them, the one the
        // others wait for.
        func deliver(_ read: consuming Read) throws {
            try body(read)
            Parallel.release(read)
        }
        // The first batches are smaller, each twice the one before, up to `batch`: `body` starts on
        // the first lines instead of waiting for a whole batch to be parsed.
        var batchLines = concurrent ? max(1, batch / 8) : batch
        while left > 0 {
            // Up to `batchLines` whole lines at the head of `pending`, reading on as they are needed.
            let want = min(batchLines, left)
            batchLines = min(batchLines * 2, batch)
            var ends: [Int] = []
            ends.reserveCapacity(want)
            var scanned = 0
            while ends.count < want {
                let from = scanned
                let found = pending.withUnsafeBytes { Self.newline(in: $0, from: from) }
                if let end = found {
                    ends.append(end); scanned = end + 1
                } else {
                    scanned = pending.count
                    let more = try next()
                    if more.isEmpty { break }
                    pending.append(more)
                }
            }
            guard let last = ends.last else { break }
            let lineData = Data(pending.prefix(last + 1))
            let start = at
            pending = Data(pending.dropFirst(last + 1))
            at = Position(offset: at.offset + UInt64(last + 1), line: at.line + ends.count)
            left -= ends.count
            delivered = true
            let end = at
            // The daemon's reads (a few new lines) stay on this thread.
            guard concurrent, ends.count >= 2_000 || parsing != nil else {
                let parsed = parse(lineData, lineEnds: ends, range: 0..<ends.count, device: device, from: start,
                                   shares: concurrent ? nil : 1)
                try body(Read(lines: parsed.lines, problems: parsed.problems, next: end))
                continue
            }
            let next = Parallel.Background { [ends] in
                let parsed = parse(lineData, lineEnds: ends, range: 0..<ends.count, device: device, from: start, shares: 1)
                return Read(lines: parsed.lines, problems: parsed.problems, next: end)
            }
            let previous = parsing
            parsing = next
            if let previous { try deliver(previous.take()) }
        }
        if let previous = parsing {
            parsing = nil
            try deliver(previous.take())
        }
        if !delivered { try body(Read(lines: [], problems: [], next: at)) }
        return at
    }

    /// The index of the first newline in `bytes` at or after `from` (`memchr`: a byte loop over
    /// another device's whole file weighed on applying it).
    static func newline(in bytes: UnsafeRawBufferPointer, from: Int) -> Int? {
        guard let base = bytes.baseAddress, from < bytes.count,
              let hit = memchr(base + from, 0x0A, bytes.count - from) else { return nil }
        return base.distance(to: UnsafeRawPointer(hit))
    }

    /// The operations of `device` on the lines of `data` that end at `lineEnds`, and the lines that
    /// are not one (by index: nil when not an operation at all; empty lines are neither). A long
    /// file (another device's first) is parsed on every core, a share of the lines each.
    private static func parse(_ data: Data, lineEnds: [Int], range: Range<Int>, device: String,
                              from: Position, shares: Int? = nil) -> (lines: [Line], problems: [Problem]) {
        let count = range.count, first = range.lowerBound
        let shares = shares ?? (count < 2_000 ? 1 : Parallel.threads.width)
        let size = (count + shares - 1) / shares
        @Sendable func parseShare(_ share: Int) -> (lines: [Line], problems: [Problem]) {
            let reader = JSONReader()
            var lines: [Line] = [], problems: [Problem] = []
            for i in (first + min(share * size, count))..<(first + min((share + 1) * size, count)) {
                let start = data.startIndex + lineStart(i, lineEnds), end = data.startIndex + lineEnds[i]
                guard end > start else { continue }
                let bytes = data[start..<end]
                let number = from.line + i + 1
                let next = Position(offset: from.offset + UInt64(lineEnds[i] + 1), line: number)
                let hash = LineHash.of(bytes)
                let op = bytes.withUnsafeBytes { SyncOperation.parse($0, reader: reader) }
                guard let op, op.device == device else {
                    problems.append(Problem(number: number, next: next, hash: hash, id: op?.id, reason: op.map {
                        "an operation of device \(LineHash.printable($0.device)) in the file of device \(device)"
                    } ?? "not a dosebar operation (damaged or cut off)"))
                    continue
                }
                lines.append(Line(op: op, bytes: bytes, number: number, next: next, hash: hash))
            }
            return (lines, problems)
        }
        // The daemon's reads (a few new lines) stay on this thread.
        guard shares > 1 else { return parseShare(0) }
        var parsed = Parallel.threads.map(parts: shares, parseShare)
        // Joined in order, each share's lines let go as they are copied (a 20-year file is large).
        var all: [Line] = []
        all.reserveCapacity(parsed.reduce(0) { $0 + $1.lines.count })
        for share in parsed.indices {
            all.append(contentsOf: parsed[share].lines)
            parsed[share].lines = []
        }
        return (all, parsed.flatMap(\.problems))
    }

    /// Lines parsed between two reports of ``read(_:device:from:progress:)``'s progress.
    static let progressChunk = 50_000

    /// Where line `i` starts, the lines ending at `lineEnds`.
    private static func lineStart(_ i: Int, _ lineEnds: [Int]) -> Int { i == 0 ? 0 : lineEnds[i - 1] + 1 }
}
