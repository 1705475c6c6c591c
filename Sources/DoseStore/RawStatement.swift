import CSQLiteShim
#if canImport(Glibc)
import Glibc
#endif
import GRDB

/// A cached statement run through SQLite's C API, its values bound by position: for what sync runs
/// once per line of another device's history (583,088 lines for 50 medicines × 20 years), where
/// GRDB's `StatementArguments` and `Row` cost about as much as SQLite's own work for a look-up.
/// Only for statements that neither begin nor end a transaction (GRDB tracks those itself).
struct RawStatement {
    private let statement: OpaquePointer
    private let connection: OpaquePointer?
    private let sql: StaticString

    /// `sql`'s statement, from `cache` when it has it: GRDB's own cache looks a statement up by
    /// hashing its whole text at every call, twice a line of another device's history.
    init(_ db: Database, cache: Cache, sql: StaticString) throws {
        let key = UnsafeRawPointer(sql.utf8Start)
        if let known = cache.statements[key] {
            statement = known.sqliteStatement
        } else {
            let fresh = try db.cachedStatement(sql: sql.description)
            cache.statements[key] = fresh
            statement = fresh.sqliteStatement
        }
        connection = db.sqliteConnection
        self.sql = sql
    }

    /// The statements of one transaction's readers and writer, by the address of their text (a
    /// literal's, fixed for the run). Kept alive here, as GRDB's cache would keep them.
    final class Cache {
        fileprivate var statements: [UnsafeRawPointer: Statement] = [:]
    }

    private static let transient = unsafeBitCast(OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self)

    /// Binds a statement's values in order, each typed (no dynamic casts: they cost more than the
    /// binding); nil binds NULL.
    struct Binder {
        fileprivate let statement: OpaquePointer
        fileprivate var index: Int32 = 0

        mutating func int<I: BinaryInteger>(_ value: I?) {
            index += 1
            if let value { sqlite3_bind_int64(statement, index, Int64(value)) } else { sqlite3_bind_null(statement, index) }
        }

        mutating func double(_ value: Double?) {
            index += 1
            if let value { sqlite3_bind_double(statement, index, value) } else { sqlite3_bind_null(statement, index) }
        }

        /// SQLite copies the bytes (`SQLITE_TRANSIENT`), read in place: passing the `String` itself
        /// made a C copy of it first, an allocation per value (a sixth of binding another device's dose).
        mutating func text(_ value: String?) {
            index += 1
            guard var value else { sqlite3_bind_null(statement, index); return }
            let (statement, index) = (statement, index)
            value.withUTF8 { bytes in
                _ = bytes.withMemoryRebound(to: CChar.self) { chars in
                    guard let base = chars.baseAddress else { return sqlite3_bind_text(statement, index, "", 0, RawStatement.transient) }
                    return sqlite3_bind_text(statement, index, base, Int32(chars.count), RawStatement.transient)
                }
            }
        }
    }

    /// Binds the values `bind` gives, runs the statement to its end and returns the first column of
    /// its first row as an integer (nil: no row, or NULL there).
    @discardableResult
    func run(_ bind: (inout Binder) -> Void) throws -> (row: Bool, value: Int64?) {
        sqlite3_reset(statement)
        var binder = Binder(statement: statement)
        bind(&binder)
        defer { sqlite3_reset(statement) }
        var code = sqlite3_step(statement)
        var result: (row: Bool, value: Int64?) = (false, nil)
        if code == SQLITE_ROW {
            result = (true, sqlite3_column_type(statement, 0) == SQLITE_NULL ? nil : sqlite3_column_int64(statement, 0))
            while code == SQLITE_ROW { code = sqlite3_step(statement) }
        }
        guard code == SQLITE_DONE else {
            let extended = connection.map { sqlite3_extended_errcode($0) } ?? code
            let message = connection.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) }
            throw DatabaseError(resultCode: ResultCode(rawValue: extended), message: message, sql: sql.description)
        }
        return result
    }

    /// Runs GRDB's `statement`, its arguments already set (`setArguments`), and hands each row to
    /// `row`, its columns read by position through SQLite's C API: decoding another device's 20
    /// years of events (583,000 rows, read again for their summaries) through `Row` cost as much as
    /// SQLite's own reading of them.
    static func rows(of statement: Statement, in db: Database, _ row: (Columns) throws -> Void) throws {
        let raw = statement.sqliteStatement
        defer { sqlite3_reset(raw) }
        var code = sqlite3_step(raw)
        while code == SQLITE_ROW {
            try row(Columns(statement: raw))
            code = sqlite3_step(raw)
        }
        guard code == SQLITE_DONE else {
            let connection = db.sqliteConnection
            let extended = connection.map { sqlite3_extended_errcode($0) } ?? code
            let message = connection.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) }
            throw DatabaseError(resultCode: ResultCode(rawValue: extended), message: message, sql: statement.sql)
        }
    }

    /// The row id of `db`'s last insert, read from SQLite itself: GRDB's `lastInsertedRowID` first
    /// checks the calling thread's queue, many times SQLite's own cost, once a dose of another
    /// device's history.
    static func lastInsertedRowID(_ db: Database) -> Int64 {
        db.sqliteConnection.map(sqlite3_last_insert_rowid) ?? db.lastInsertedRowID
    }

    /// The columns of the row a statement stands on, by position (from 0).
    struct Columns {
        fileprivate let statement: OpaquePointer

        func int(_ column: Int32) -> Int64 { sqlite3_column_int64(statement, column) }

        func optionalInt(_ column: Int32) -> Int64? {
            sqlite3_column_type(statement, column) == SQLITE_NULL ? nil : sqlite3_column_int64(statement, column)
        }

        func double(_ column: Int32) -> Double { sqlite3_column_double(statement, column) }

        func text(_ column: Int32) -> String {
            sqlite3_column_text(statement, column).map { String(cString: $0) } ?? ""
        }

        /// Whether the column holds exactly the text `word` (read in place: no string made).
        func text(_ column: Int32, is word: StaticString) -> Bool {
            guard let bytes = sqlite3_column_text(statement, column) else { return false }
            let count = Int(sqlite3_column_bytes(statement, column))
            return count == word.utf8CodeUnitCount && memcmp(bytes, word.utf8Start, count) == 0
        }
    }
}
