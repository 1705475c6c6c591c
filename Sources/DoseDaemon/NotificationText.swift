import DoseCore
import Foundation

/// The words of one notification in English or Korean.
struct NotificationText {
    var summary: String
    var body: String
    private let korean: Bool

    init(_ alert: DoseAlert, zone: Zone, now: Date, korean: Bool) {
        self.korean = korean
        let names = alert.doses.map(\.medication)
        let list = names.joined(separator: ", ")
        let time = zone.local(alert.scheduled).clock
        let doses = alert.doses.map { d in d.dose.map { "\(d.medication) \($0)" } ?? d.medication }.joined(separator: ", ")
        let minutes = max(0, Int(now.timeIntervalSince(alert.scheduled) / 60))
        let late = minutes >= 60 ? (korean ? "\(minutes / 60)시간 \(minutes % 60)분" : "\(minutes / 60) h \(minutes % 60) min")
            : (korean ? "\(minutes)분" : "\(minutes) min")
        switch (alert.kind, korean) {
        case (.due, false):
            summary = "Time for \(list)"
            body = "\(time) · \(doses)"
        case (.due, true):
            summary = "복용 시간: \(list)"
            body = "\(time) · \(doses)"
        case (.late, false):
            summary = names.count == 1 ? "\(list) is late" : "\(list) are late"
            body = "Due at \(time), \(late) ago · \(doses)"
        case (.late, true):
            summary = "복용이 늦었어요: \(list)"
            body = "\(time) 예정, \(late) 지남 · \(doses)"
        }
        if alert.reminder { summary = (korean ? "다시 알림: " : "Reminder: ") + summary }
        // Notification servers may read the body as markup (dunst does): names stay text.
        body = body.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
    }

    /// The button label of an action.
    func label(_ choice: AlertAnswer.Choice) -> String {
        switch (choice, korean) {
        case (.taken, false): "Taken"
        case (.snooze, false): "Snooze 10 min"
        case (.skip, false): "Skip"
        case (.taken, true): "복용함"
        case (.snooze, true): "10분 뒤 다시"
        case (.skip, true): "건너뛰기"
        }
    }
}
