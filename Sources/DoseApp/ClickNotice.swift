import DoseCore
import DoseFiles
import Foundation
import Glibc

/// What a click that recorded nothing leaves for `daemon --notify` (DESIGN §2: "a click that
/// recorded nothing says what is next"): the refusal the click got, and when. One small private
/// file beside the database, `<database>-click`, renamed into place: the daemon's inotify watch on
/// the database directory sees it arrive (no polling), and the daemon reads and removes it. A
/// newer refusal replaces an older one not yet shown: only the latest is news. Never written for a
/// command run from a terminal (it printed the refusal to the person) nor with `[notify] clicks = false`.
public struct ClickNotice: Codable, Equatable, Sendable {
    /// When the click was refused (the command's clock).
    public var at: Date
    /// The refusal, as the click printed it on stderr.
    public var text: String

    /// How long a refusal stays worth showing: a daemon started later says nothing about it.
    public static let freshFor: TimeInterval = 120

    public init(at: Date, text: String) {
        self.at = at; self.text = text
    }

    /// The file's name in the database's directory.
    public static func fileName(database: String) -> String {
        FileIO.split(database).name + "-click"
    }

    /// The file's path.
    public static func path(database: String) -> String {
        FileIO.split(database).directory + "/" + fileName(database: database)
    }

    /// Leaves the notice; a failure is silent (the click's refusal on stderr is what counts).
    public func leave(database: String) {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        guard let data = try? encoder.encode(self) else { return }
        try? PrivateFile.write(String(decoding: data, as: UTF8.self), to: Self.path(database: database))
    }

    /// Takes the notice left beside `database`, if any: the file is removed whatever it holds. Nil
    /// when there is none, it is unreadable, or it is not fresh at `now` (older than ``freshFor``,
    /// or from a clock more than a minute ahead).
    public static func take(database: String, now: Date) -> ClickNotice? {
        let path = path(database: database)
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        unlink(path)
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        guard let notice = try? decoder.decode(ClickNotice.self, from: data) else { return nil }
        let age = now.timeIntervalSince(notice.at)
        return age <= freshFor && age >= -60 ? notice : nil
    }
}
