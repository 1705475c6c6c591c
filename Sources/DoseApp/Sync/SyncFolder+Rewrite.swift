import DoseCore
import DoseStore
import DoseExport
import DoseFiles
import Foundation
#if canImport(Glibc)
import Glibc
#endif

extension SyncFolder {
    /// Rewrites this device's own file without the lines of operations about the medicines of
    /// `purged` (global ids); their `purge` lines stay, so the other devices learn of it. Every other
    /// line stays byte for byte, one this dosebar cannot read included. Atomic: a temporary file in
    /// the folder (mode 0600, a name Syncthing never carries), fsynced, renamed over the file, under
    /// the lock appends take. Returns how many lines it dropped (0: the file is left as it was).
    ///
    /// Only this device's own file: another device's is never rewritten here.
    @discardableResult
    public func rewrite(device: String, dropping purged: Set<String>) throws -> Int {
        let name = file(of: device)
        guard !purged.isEmpty, let fd = try Self.lockedOwnFile(name) else { return 0 }
        defer { close(fd) }
        let handle = FileHandle(fileDescriptor: fd, closeOnDealloc: false)
        guard let data = try? handle.readToEnd() ?? Data() else {
            throw DosebarError.io("\(name): cannot read it (check its permissions)")
        }
        var kept = Data()
        kept.reserveCapacity(data.count)
        var dropped = 0
        let reader = JSONReader()
        var start = data.startIndex
        while start < data.endIndex {
            let end = data[start...].firstIndex(of: 0x0A) ?? data.endIndex
            let line = data[start..<end]
            let next = end < data.endIndex ? end + 1 : end
            if let op = line.withUnsafeBytes({ SyncOperation.parse($0, reader: reader) }), op.knownKind != .purge,
               let gid = op.medicine, purged.contains(gid) {
                dropped += 1
            } else {
                kept.append(data[start..<next])
            }
            start = next
        }
        guard dropped > 0 else { return 0 }
        let temporary = path + "/.syncthing." + device + ".jsonl.dosebar-\(getpid()).tmp"
        unlink(temporary)
        let out = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard out >= 0 else { throw DosebarError.io("\(temporary): cannot create (\(FileIO.reason(errno)))") }
        var ok = false
        defer { if !ok { unlink(temporary) } }
        do {
            defer { close(out) }
            if let code = kept.withUnsafeBytes({ FileIO.writeAll(out, $0) }) {
                throw DosebarError.io("\(temporary): cannot write (\(FileIO.reason(code)))")
            }
            guard fsync(out) == 0 else { throw DosebarError.io("\(temporary): cannot sync to disk (\(FileIO.reason(errno)))") }
        }
        guard rename(temporary, name) == 0 else {
            throw DosebarError.io("\(name): cannot replace it (\(FileIO.reason(errno)))")
        }
        ok = true
        FileIO.syncDirectory(path)
        return dropped
    }

    /// This device's file opened for reading and locked, the lock held on the file now at `name`
    /// (a rewrite renamed a new one over it while this waited: that one is locked instead); nil
    /// when there is none.
    static func lockedOwnFile(_ name: String) throws -> Int32? {
        while true {
            let fd = open(name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
            if fd < 0 {
                if errno == ENOENT { return nil }
                throw DosebarError.io("\(name): cannot open (\(FileIO.reason(errno)))")
            }
            do { try FileIO.lockExclusive(fd, name, waiting: DoseStore.busyTimeout) } catch { close(fd); throw error }
            if isStillAt(fd, name) { return fd }
            close(fd)
        }
    }

    /// This device's file opened to append and locked, the lock held on the file now at `name`: a
    /// purge's rewrite may have renamed a new file over the one opened while the lock was awaited.
    static func lockedForAppend(_ name: String) throws -> Int32 {
        while true {
            let fd = open(name, O_RDWR | O_CREAT | O_APPEND | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0o600)
            guard fd >= 0 else {
                if errno == ELOOP { throw DosebarError.io("\(name): is a symbolic link; dosebar appends only to a file of its own (remove the link)") }
                throw DosebarError.io("\(name): cannot open (\(FileIO.reason(errno)))")
            }
            do {
                try requireRegular(fd, name)
                // Bounded like every wait (DESIGN §9): a stopped `sync now` never freezes a take.
                try FileIO.lockExclusive(fd, name, waiting: DoseStore.busyTimeout)
            } catch {
                close(fd)
                throw error
            }
            if isStillAt(fd, name) { return fd }
            close(fd)
        }
    }

    /// Whether the open file `fd` is the one at `name` (not replaced by a rename since it was opened).
    static func isStillAt(_ fd: Int32, _ name: String) -> Bool {
        var open = stat(), now = stat()
        guard fstat(fd, &open) == 0, lstat(name, &now) == 0 else { return false }
        return open.st_dev == now.st_dev && open.st_ino == now.st_ino
    }
}
