import DoseCore
import Foundation

/// The words of one notification, from the catalog of the person's language.
struct NotificationText {
    var summary: String
    var body: String
    private let catalog: Catalog

    init(_ alert: DoseAlert, zone: Zone, now: Date, catalog: Catalog) {
        self.catalog = catalog
        let names = alert.doses.map(\.medication)
        var doses = alert.doses.map { d in d.dose.map { "\(d.medication) \($0)" } ?? d.medication }
        // A confirmation names each dose with its time: "Took Metformin 500 mg (08:00)".
        if alert.kind == .took { doses = zip(doses, alert.doses).map { "\($0) (\($1.slot.time))" } }
        let late = max(0, Int(now.timeIntervalSince(alert.scheduled) / 60))
        let args = ["names": names.joined(separator: catalog.listSeparator), "count_is": catalog.countIs(names.count),
                    "time": zone.local(alert.scheduled).clock, "late": catalog.minutes(late),
                    "doses": doses.joined(separator: catalog.listSeparator), "note": alert.note ?? ""]
        if alert.kind == .double, let d = alert.doses.first {
            summary = catalog.render(Message(MessageID.doubleDose, .critical, [
                "name": .text(d.medication), "time": .text(d.slot.time.description), "takes": .list(alert.takes ?? []),
            ])).text
            body = catalog.text("notify.double_body", ["name": d.medication])
        } else if alert.kind == .travel {
            summary = catalog.text("notify.travel", args)
            body = alert.note ?? ""
        } else {
            summary = catalog.text("notify." + alert.kind.rawValue, args)
            body = catalog.text("notify.\(alert.kind.rawValue)_body", args)
        }
        if alert.reminder { summary = catalog.text("notify.reminder", ["summary": summary]) }
        // Notification servers may read the body as markup (dunst does): names stay text.
        body = body.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
    }

    /// The button label of an action.
    func label(_ choice: AlertAnswer.Choice) -> String {
        catalog.text("action." + choice.rawValue)
    }
}
