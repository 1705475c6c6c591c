import Foundation

/// The words of one language: every word dosebar shows — message templates, status words,
/// bar-text pieces, notifications — and the one way it writes a duration.
/// Templates name arguments in braces (`{name}`); `Catalog.render` fills them. A template with
/// `.one` after its id is used when its number argument is 1 (`1 day left`, `5 days left`).
public struct Catalog: Sendable {
    public var language: String
    public var templates: [String: String]
    public var weekdays: [String]
    /// Short weekday names, Monday first (`mon`, `월`), for schedules.
    public var weekdayCodes: [String]
    /// Formats a number of minutes (`2h 10m`, `2시간 10분`).
    public var minutes: @Sendable (Int) -> String
    public var listSeparator: String

    public static let english = Catalog(
        language: "en",
        templates: [
            MessageID.empty: "No medicines yet: add one with 'dosebar add NAME --at HH:MM'",
            MessageID.late4h: "{names} {count_is} {late} late: take now or skip",
            MessageID.late2h: "{names} {count_is} {late} late",
            MessageID.late: "{names} {count_is} {late} late",
            MessageID.doubleDose: "{name} {time} taken twice: {takes}",
            MessageID.dueNow: "Time for {names}",
            MessageID.missedYesterday: "Yesterday: {doses} missed — don't double today's dose",
            "dose.name_time": "{name} {time}", "dose.count": "{count} doses", "dose.count.one": "1 dose",
            MessageID.zoneChanged: "Now on {zone} time (since {time}; was {was}): doses follow this clock, earlier days keep theirs",
            MessageID.travelGap: "{name}: next dose {gap} h after the last (usually {usual} h). Take it at {time} here to keep {usual} h (`dosebar take {name} --slot {slot}`), or keep {was} time: `dosebar edit {name} --keep-zone {was}`",
            MessageID.travelGapLater: "{name}: next dose {gap} h after the last (usually {usual} h), at {next} here; to keep {usual} h, keep {was} time: `dosebar edit {name} --keep-zone {was}`",
            MessageID.lowStock: "{name}: {days} days left, refill soon",
            MessageID.lowStock + ".one": "{name}: 1 day left, refill soon",
            MessageID.allDone: "All done for today · {streak}-day streak",
            MessageID.allDoneMilestone: "All done · {streak}-day streak, a milestone!",
            MessageID.restDay: "{name}: rest day {day} of {length}, resumes {weekday}",
            MessageID.nextUp: "Next: {names} at {time}",
            MessageID.moveSuggestion: "{name} at {time} was late or missed on {count} of the last 7 days: consider moving it",
            MessageID.nothingToday: "Nothing scheduled today",
            "count_is.one": "is", "count_is.many": "are",
            "status.upcoming": "upcoming", "status.due": "due", "status.late": "late", "status.missed": "missed",
            "status.taken": "taken", "status.taken_early": "taken early", "status.taken_late": "taken late",
            "status.skipped": "skipped",
            "text.empty": "no medicines", "text.none": "nothing today", "text.rest": "rest day {day}/{length}",
            "text.done": "{done}/{total} · streak {streak}", "text.due": "{done}/{total} · {names} due",
            "text.late": "{done}/{total} · {names} late {late}", "text.upcoming": "{done}/{total} · {names} {time}",
            "text.missed": "{done}/{total} · missed",
            "text.low": " · {name} low ({days})", "text.low_unknown": " · {name} low", "text.out": " · {name} out",
            "tooltip.streak": "Streak: {current} (best {best})",
            "tooltip.adherence": "Taken: {days7} (7 days), {days30} (30 days)",
            "tooltip.none": "Nothing scheduled today",
            "as_needed.count": "{name} (as needed): {count} today", "as_needed.count_max": "{name} (as needed): {count}/{max} today",
            "as_needed.next": "next from {time}", "as_needed.none_left": "no more today",
            "cycle.active": "day {day} of {length}, rest from {date}", "cycle.active.again": "day {day} of {length}, day 1 again on {date}",
            "cycle.active.ends": "day {day} of {length}, course ends {date}",
            "cycle.rest": "rest day {day} of {length}, resumes {date}", "cycle.rest.ends": "rest day {day} of {length}, course ends {date}",
            "cycle.named": "{name}: {cycle}",
            "notify.due": "Time for {names}", "notify.late": "{names} {count_is} late",
            "notify.due_body": "{time} · {doses}", "notify.late_body": "Due at {time}, {late} ago · {doses}",
            "notify.missed": "{names}: missed — do not double the next dose",
            "notify.missed_body": "The {time} dose ({doses}) is now missed: it is nearly time for the next one. Take that one as usual, never two to make up.",
            "notify.reminder": "Reminder: {summary}",
            "action.taken": "Taken", "action.snooze": "Snooze 10 min", "action.skip": "Skip", "action.undo": "Undo",
            "notify.took": "Took {doses}", "notify.took_body": "Recorded without a terminal (a bar click or a script). Not you? Undo takes it back.",
            "notify.nothing": "Nothing taken", "notify.nothing_body": "{note}",
            "notify.travel": "{names}: the change of zone moved the next dose",
            "action.confirm": "Both taken",
            "notify.double_body": "Both doses are kept. If one was not taken: dosebar undo {name}. If both were: confirm it here.",
            "menu.take_all": "Take all due",
            // A carried dose's time in a menu of today's doses (timeline.json `words.slot_day`).
            "menu.slot.yesterday": "yesterday {time}", "menu.slot.date": "{date} {time}",
            // History (DESIGN §3): day states, calendar, stats.
            "history.state.none": "nothing scheduled", "history.state.rest": "rest day",
            "history.state.done": "done: every dose taken or skipped, at least one taken",
            "history.state.skipped": "every dose skipped", "history.state.missed": "none taken, at least one missed",
            "history.state.partial": "some taken, some missed",
            "history.decided_after_close": "a dose skipped after it was missed (counted as skipped)",
            "report.skipped_after_missed": "skipped after it was missed",
            "history.state.pending": "not complete yet (today, or a dose still open)",
            "month.1": "Jan", "month.2": "Feb", "month.3": "Mar", "month.4": "Apr", "month.5": "May", "month.6": "Jun",
            "month.7": "Jul", "month.8": "Aug", "month.9": "Sep", "month.10": "Oct", "month.11": "Nov", "month.12": "Dec",
            "month.year": "{month} {year}",
            // The 7-day strip of the bars: {days} is one symbol per day, oldest first, today last.
            "week.line": "Week: {days}",
            // The doctor's report (DESIGN §3 Reports, `report --format html`).
            "report.title": "Medication report", "report.period": "{from} – {to} ({days})",
            "report.days": "{count} days", "report.days.one": "1 day", "report.zone": "Time zone: {zone}",
            "report.zone_change": "The person travelled: from {date} {time} ({offset}), {from} → {to}. Every dose before keeps the time it was lived at.",
            "report.generated": "Generated on {date} at {time}",
            "report.date": "{weekday} {day} {month} {year}", "report.date.short": "{weekday} {day} {month}",
            "report.day_month": "{day} {month}", "report.weekdays": "Mon Tue Wed Thu Fri Sat Sun",
            "report.overall": "Overall", "report.medicines": "Medicines", "report.calendar": "Calendar",
            "report.twice": "Doses taken twice (on two devices)", "report.twice_row": "{date} {time} {name}: {takes}",
            "report.twice_confirmed": "both confirmed",
            "history.double_dose": "{name} {date} {time} taken twice: {takes}", "history.double_dose_confirmed": " (confirmed)",
            "report.weekly": "Weekly adherence", "report.troubled": "Missed and late doses",
            "report.column.medicine": "Medicine",
            "report.column.adherence": "Adherence", "report.column.on_time": "On time", "report.column.taken": "Taken",
            "report.column.late": "Late", "report.column.early": "Early", "report.column.skipped": "Skipped",
            "report.column.missed": "Missed", "report.column.as_needed": "As needed", "report.column.mean_late": "Avg. late",
            "report.column.most_late": "Often late", "report.column.date": "Date", "report.column.time": "Scheduled",
            "report.column.status": "Status", "report.column.taken_at": "Taken at", "report.column.late_by": "Late by",
            "report.all": "All medicines", "report.schedule": "{schedule} at {times}", "report.stopped": "stopped on {date}",
            "report.until": "until {date}", "report.taken_of": "{taken} of {known} doses taken",
            "report.note": "Adherence: doses taken among those taken, skipped or missed. On time: doses taken within their window, among those taken. Doses still open today are not counted.",
            "report.outside": "outside the period", "report.no_outcome": "no known outcome",
            "report.chart": "Adherence per week, {from} – {to}",
            "report.no_troubled": "No dose was missed or taken late in this period.",
            "report.no_medicines": "No medicine was scheduled in this period.",
            "report.over_limit": "{count} over limit",
            "history.all": "all",
            "history.duplicates": "{count} doses came from another device for a slot its earlier dose decides (both kept).",
            "history.duplicates.one": "1 dose came from another device for a slot its earlier dose decides (both kept).",
            "stats.title": "Last {days} days, {from} – {to} (the {days} before: {previous_from} – {previous_to})",
            "stats.column.medicine": "MEDICINE", "stats.column.adherence": "TAKEN", "stats.column.previous": "BEFORE",
            "stats.column.on_time": "ON TIME", "stats.column.late": "LATE", "stats.column.early": "EARLY",
            "stats.column.skipped": "SKIP", "stats.column.missed": "MISSED", "stats.column.mean_late": "AVG LATE",
            "stats.column.most_late": "LATE AT",
            "stats.note": "TAKEN: of the doses taken, skipped or missed.\nON TIME: of those taken, within the window. LATE AT: the slot most often late.",
            "schedule.daily": "daily", "schedule.every_days": "every {n}d", "schedule.every_weeks": "every {n}w",
            "schedule.every_months": "every {n}m", "schedule.cycle": "cycle {active}/{rest}", "schedule.as_needed": "as needed",
            "schedule.max_per_day": "max {n}/day", "schedule.min_interval": "every ≥{interval}",
            "confirm.took": "Took {name}{dose} ({slot} dose) at {when}{timing}",
            "confirm.took_as_needed": "Took {name}{dose} at {when}", "confirm.took_as_needed_count": "Took {name}{dose} at {when} ({count})",
            "confirm.skipped": "Skipped {name} ({slot} dose)",
            "confirm.slot.yesterday": "yesterday's {time}", "confirm.slot.date": "{date} {time}",
            "confirm.late": ", {duration} late", "confirm.early": ", {duration} early",
            "confirm.count": "{count} today", "confirm.count_max": "{count} of {max} today", "confirm.over_limit": ", over the limit",
            "confirm.left": " · {amount} left", "confirm.left_days": " · {amount} left ({days})",
            "confirm.days": "{count} days", "confirm.days.one": "1 day",
            "confirm.low": " · low: refill soon", "confirm.none_left": " · none left",
            "cli.undid_taken": "Undid: took {name}{slot}{others}.", "cli.undid_skipped": "Undid: skipped {name}{slot}{others}.",
            "cli.undid_slot": " ({time} dose)", "cli.undid_slot_of": " ({time} dose of {date})",
            "cli.undid_others": " and {count} more doses logged with it", "cli.undid_others.one": " and 1 more dose logged with it",
            "cli.added": "Added {name}: {schedule}{times}{from}{stock}.", "cli.times": " at {times}", "cli.from": " from {date}",
            "cli.added_stock": " · {stock}", "stock.on_hand": "{amount} on hand", "stock.days": " · {days}",
            "cli.updated_dose": "{name}: dose {dose} ({amount} per dose) from {date}; days before keep theirs.",
            "report.dose_until": "{dose} until {date}", "report.dose_from": "{dose} from {date}", "report.dose_units": "{amount} per dose",
            "cli.updated": "Updated {name}.", "cli.updated_schedule": "Updated {name}: {schedule}{times} from {date}.",
            "cli.archived": "Removed {name} (history kept). Bring it back with: dosebar resume {name}",
            "cli.on_hand": "{name}: {stock}.",
            "cli.stock_left": "{name}: {stock} left",
            "cli.resumed": "Resumed {name}: scheduled again from today, with its history and stock.",
            "cli.purged": "Purged {name} and its {count} doses for good. Backups you made still hold it.",
            "cli.purged.one": "Purged {name} and its 1 dose for good. Backups you made still hold it.",
            "purge.ask": "Delete {name} and its {count} doses for good? Backups you made still hold it. Type the name to confirm:",
            "purge.ask.one": "Delete {name} and its 1 dose for good? Backups you made still hold it. Type the name to confirm:",
            "purge.kept": "Kept {name}: nothing deleted.",
            "purge.needs_yes": "purge deletes {name} and its {count} doses for good; run again with --yes",
            "purge.needs_yes.one": "purge deletes {name} and its 1 dose for good; run again with --yes",
            "purge.log_held": "another process had the database open: {path} may hold some deleted data until it closes the database",
            "doctor.temporary_left": "{path} is a copy of your data a killed backup or restore left, and dosebar cannot remove it: remove it yourself",
            "purge.not_compacted": "{name} is deleted, but {path} could not be compacted and may still hold its doses ({reason}); free some space, then run: sqlite3 '{path}' VACUUM",
            "import.dry_run": "Dry run: nothing was written.",
            "import.added": "Added {name}: {schedule}.",
            "import.added_history_only": "Added {name} (as needed, archived): its doses in history match no treatment.",
            "import.added_rebuilt": "Added {name} (archived): a treatment no longer in Dosage; its doses rebuilt from its history ({schedule}).",
            "import.added_unknown": "Added {name} (as needed): no medicine of that name.",
            "import.reused": "Kept {name} as it is (already in dosebar); its doses go there.",
            "import.doses": "Doses imported: {taken} taken, {skipped} skipped; {already} already there.",
            "import.time_unknown": "{count} of the taken doses have no time of taking (shown at their scheduled time).",
            "import.missed": "Missed: {count} (dosebar records a missed dose by its absence; nothing to add).",
            "import.no_equivalent": "No equivalent in dosebar (not imported):",
            "import.no_slot": "{name}: {taken} taken and {skipped} skipped doses on a day or at a time its schedule has no dose",
            "import.ne.doses": "{name}: a different dose per time ({doses}) that dosebar cannot keep per time (an amount beyond hundredths or its range, or two for one time): the dose text names each, and a take counts {largest} from stock (the largest: stock runs low early, never late)",
            "import.ne.reminder": "{name}: low-stock reminder at {units} {unit} (no daily use to count it in days)",
            "import.ne.refill": "{name}: refill amount {amount} (give it each time: dosebar refill {name} {amount})",
            "import.ne.negative_stock": "{name}: stock {amount} in Dosage (below zero, shown there as 0): imported as 0",
            "import.ne.long_name": "{name}: name of {length} characters cut to its first {max} (dosebar's limit)",
            "import.ne.settings": "{name}: {settings}: no equivalent in dosebar, not imported",
            "import.ne.skip_then_take": "{name}: {count} dose(s) both skipped and taken (a skip, then a late take): kept as taken; the skip has no place beside the take",
            "import.ne.skip_again": "{name}: {count} dose(s) skipped twice: kept as one skip",
            "import.ne.stock_kept": "{name}: stock {amount} in Dosage imported as {kept} (dosebar keeps hundredths, at most {max})",
            "import.would_add": "Would add {name}: {schedule}.",
            "import.would_add_history_only": "Would add {name} (as needed, archived): its doses in history match no treatment.",
            "import.would_add_rebuilt": "Would add {name} (archived): a treatment no longer in Dosage; its doses rebuilt from its history ({schedule}).",
            "import.would_add_unknown": "Would add {name} (as needed): no medicine of that name.",
            "import.would_reuse": "Would keep {name} as it is (already in dosebar); its doses would go there.",
            "import.would_doses": "Doses it would import: {taken} taken, {skipped} skipped; {already} already there.",
            "import.line": "{name}: {parts}.",
            "import.would_line": "{name}, would import: {parts}.",
            "import.part.taken": "{count} taken",
            "import.part.time_unknown": "{count} of them at a time not known",
            "import.part.extra": "{count} of them extra doses (a second take of one dose, or at a time with no dose: doses taken, not slots)",
            "import.part.skipped": "{count} skipped",
            "import.part.missed": "{count} missed",
            "import.part.already": "{count} already there",
            "import.part.versions": "schedule versions: {count}",
            "import.part.stock": "stock {amount}",
            "import.ne.colour": "colour {value}",
            "import.ne.icon": "icon {value}",
            "import.ne.repeat": "repeated reminders every {minutes} min",
            "import.ne.auto_confirm": "confirm doses automatically",
            "import.ne.later_today": "{count} dose(s) recorded later today than now (Dosage's one-time entry): taken now",
            "cli.today": "{weekday} {date} ({zone}) · {done}/{total} · streak {streak}",
            "cli.column.time": "TIME", "cli.column.medicine": "MEDICINE", "cli.column.dose": "DOSE", "cli.column.status": "STATUS",
            "cli.column.name": "NAME", "cli.column.schedule": "SCHEDULE", "cli.column.times": "TIMES", "cli.column.stock": "STOCK",
            "cli.column.group": "GROUP", "cli.archived_mark": "{name} (archived)",
            "cli.no_medicines": "No medicines yet. Add one: dosebar add Aspirin --at 08:00",
            "cli.wrote": "Wrote {dir}: {entries} timeline entries, {changes}", "cli.nothing_changed": "nothing changed.",
            "cli.files_changed": "{count} files changed ({files}).", "cli.files_changed.one": "1 file changed ({files}).",
            "cli.backup_written": "Wrote {path} ({size}): {medications}, {events}.",
            "cli.report_written": "Wrote the {format} report to {path}.",
            "cli.restored": "Restored {path} ({medications}, {events}); the replaced database is kept at {kept}.",
            "cli.restored.sync_device": "The backup was made by sync device {other}; this machine keeps its own, {device}, so two machines never write one sync file.",
            "cli.restored.sync_device.none": "The backup was made before sync was set up; this machine keeps its sync device {device} and folder.",
            "cli.medicines": "{count} medicines", "cli.medicines.one": "1 medicine",
            "cli.events": "{count} events", "cli.events.one": "1 event",
            "doctor.zone": "time zone {zone}, now {now}", "doctor.config": "config {path}",
            "doctor.zone_log": "the person travelled: {count} changes of zone, the latest {time}: {was} → {zone} (`dosebar zone` lists them; earlier days keep their zone)",
            "doctor.zone_log.one": "the person travelled: from {time}, {was} → {zone} (`dosebar zone` shows the log; earlier days keep their zone)",
            "zone.moved": "this machine's clock is now on {zone} (it was {was}): from {time} on, doses follow this clock; earlier days keep the zone they were lived in (`dosebar zone` shows the log)",
            "zone.set": "From now ({time}) on, the person is in {zone} (was {was}); earlier days keep their zone.",
            "zone.already": "The person is in {zone} already; nothing changed.",
            "zone.now": "Now in {zone} ({abbr}), {now}.",
            "zone.log": "Zone log:",
            "cli.at_twice": "--at {value}: the clock read that twice after the change of zone: {choices}; give the one you mean with its offset",
            "zone.log.first": "from the beginning",
            "zone.log.change": "from {date} {time} {abbr} ({was_time} {was_abbr})",
            "zone.other": "This machine's clock is on {system} ({system_abbr}); times are shown in {zone} ({abbr}), where the person is. If the person is here now: `dosebar zone here`.",
            "doctor.no_config": "no config file at {path} (defaults are used)",
            "doctor.database": "database {path} ({count} medicines)", "doctor.database.one": "database {path} (1 medicine)",
            "doctor.no_medicines": "no medicines yet: dosebar add NAME --at HH:MM",
            "doctor.no_database": "no database yet at {path}: dosebar add creates it",
            "doctor.writable": "shared directory {path} is writable",
            "doctor.no_runtime_dir": "XDG_RUNTIME_DIR is not set: bars and the daemon may disagree on {path}; set DOSEBAR_DIR",
            "doctor.daemon": "daemon running (pid {pid})",
            "doctor.no_daemon": "the daemon is not running: start it with 'systemctl --user enable --now dosebar' or 'dosebar daemon &'",
            "doctor.bar": "{bar} is installed: see {path}",
            "doctor.bar.source": "{bar} is installed: its set-up is integrations/{bar}/README.md of the dosebar source ('make install' and the .deb copy it to <prefix>/share/dosebar/integrations)",
            "doctor.problems": "{count} things to fix.", "doctor.problems.one": "1 thing to fix.",
            "doctor.fine": "Everything looks fine.",
            "doctor.out_of_range": "{name}: {problem} (stored by an older or broken dosebar; a schedule out of range shows no doses): fix it with 'dosebar edit'",
            "doctor.sync": "syncing through {dir} (Syncthing is running)",
            "doctor.no_syncthing": "sync is set up ({dir}) but Syncthing is not running: start it with 'systemctl --user enable --now syncthing'",
            "doctor.syncthing_silent": "sync is set up ({dir}) but Syncthing's API at {address} does not answer: restart it with 'systemctl --user restart syncthing'",
            "sync.initialised": "This device is {device}; its history is in {file} ({count} operations).",
            "sync.initialised.one": "This device is {device}; its history is in {file} (1 operation).",
            "sync.already": "This device ({device}) already syncs through {dir}.",
            "sync.applied": "Applied {count} operations from other devices.",
            "sync.applied.one": "Applied 1 operation from another device.",
            "progress.history": "Writing this device's history",
            "progress.own_file": "Checking this device's file",
            "progress.reading": "Reading another device's file",
            "progress.operations": "Applying other devices' operations",
            "progress.doses": "Importing doses",
            "progress.days": "Summarising past days",
            "progress.file": "Reading the file",
            "progress.rows": "Checking its rows",
            "progress.entries": "Reading its history",
            "progress.line": "{work}: {done}/{total} · {rate}/s · {left} left",
            "progress.line.starting": "{work}: {done}/{total}",
            "progress.seconds": "{n} s",
            "progress.log_start": "{work}: {total} to do, {done} done after {seconds} s",
            "progress.log_end": "{work}: {done} of {total} done in {seconds} s",
            "sync.status.header": "This device is {device}, syncing through {dir}.",
            "sync.status.device": "{device}{mine}: {count} operations applied, last {last}",
            "sync.status.device.one": "{device}{mine}: 1 operation applied, last {last}",
            "sync.status.mine": " (this device)", "sync.status.none": "none",
            "sync.status.pending": "; {pending} waiting for what they name",
            "sync.cloned": "{file}:{line}: a line this machine did not write, in its own device file: this home was copied from another machine. It continues as device {new} with a file of its own and reads {old}'s files as another device's; nothing of either machine is lost",
            "sync.status.cloned": "This home was copied from another machine: on {at} it found lines it did not write in device {old}'s file and continues as {new}.",
            "doctor.sync_cloned": "this home was copied from another machine (found {at}): it now syncs as device {new}, and device {old}'s file is read as the other machine's; nothing to do unless you copy it again",
            "sync.status.skipped": "skipped {file}:{line}: {reason}",
            "sync.status.skipped.more": "skipped {count} more lines of {file}",
            "sync.status.held": "held {origin} ({kind}): {reason}",
            "sync.status.waiting": "waiting {origin} ({kind}): {reason}",
            "error.archived": "{name} was removed on {date} (archived; 'dosebar list --all' shows it)",
            "error.unknown": "no medicine named '{name}' (see 'dosebar list')",
            "error.not_removed": "{name} is not removed (it is active; 'dosebar list' shows it)",
            "error.resume_conflict": "cannot resume {name}: the active medicine {other} has that name; rename one first (dosebar edit {other} --rename NEW)",
            "error.ambiguous": "'{name}' matches {names}: type more of the name",
            "error.empty_name": "a medicine name cannot be empty (see 'dosebar list')",
            "error.no_double_dose": "{name} has no dose taken twice to confirm",
            "error.double_dose_which": "{name} was taken twice in more than one slot: say which with {slots}",
            "cli.confirmed_double": "Confirmed: {name} {time} was taken twice ({takes})",
            "error.limit.max_per_day": "{name}: {count} doses today already (limit {max} a day); the next is allowed {next} — 'dosebar take {force} --force' records it anyway",
            "error.limit.max_per_day.one": "{name}: 1 dose today already (limit {max} a day); the next is allowed {next} — 'dosebar take {force} --force' records it anyway",
            "error.limit.min_interval": "{name}: last dose at {last}, at least {gap} apart: the next is allowed {next} — 'dosebar take {force} --force' records it anyway",
            "limit.next.today": "at {time}", "limit.next.tomorrow": "tomorrow at {time}", "limit.next.date": "on {date} at {time}",
            "error.not_due": "{name} is not due yet: next dose at {time}",
            "error.not_scheduled_today": "{name} is not scheduled today",
            "error.nothing_to_take": "{name}: nothing left to take today (every dose is resolved)",
            "error.nothing_to_skip": "{name}: nothing left to skip today",
            "error.resolved_on": "{name}: every dose on {date} is already resolved",
            "error.not_scheduled_on": "{name} is not scheduled on {date}",
            "error.nothing_due_next": "nothing is due now; next: {name} at {time} — to take it early on purpose: 'dosebar take {hint} --slot {slot}'",
            "error.nothing_due_next.day": "nothing is due now; next: {name} {when}",
            "error.nothing_due": "nothing is due now and nothing is left today",
            "slot.yesterday": "yesterday {time}", "slot.carried_name": "{name} (yesterday {time})",
            "slot.named": "{date} {time}", "slot.named.today": "{time}", "slot.named.yesterday": "yesterday's {time}",
            "slot.named.tomorrow": "tomorrow's {time}",
            "error.slot_taken": "{name}: the {slot} dose was taken at {when}{unknown} — 'dosebar undo {hint}' first to record it again",
            "error.slot_taken.unknown": " (time not recorded)",
            "error.slot_skipped": "{name}: the {slot} dose was skipped at {when} — 'dosebar undo {hint}' first to record it again",
            "error.untracked": "{name}: the {slot} dose is from before dosebar tracked {name} (added {added}); to record it: dosebar {verb} {hint} --slot {key}",
            "error.no_slot": "{name} has no {time} dose on {date}{times}",
            "error.no_slot.times": " (its doses that day: {times})",
            "error.nothing_at": "{name}: no dose was open at {when} (next: {next}); --slot [DATE ]HH:MM names a dose",
            "error.nothing_at.none": "{name}: no dose was open at {when}; --slot [DATE ]HH:MM names a dose",
            "error.nothing_open_at": "no dose was open at {when}: name the medicine (dosebar take NAME --at …) or the dose (--slot [DATE ]HH:MM)",
            "error.slot_future": "--slot {date} {time}: that dose is on a day to come; take it when it is due (or with --next)",
            "error.slot_needs_name": "--slot names one dose of a medicine: give the medicine's name (dosebar take NAME --slot HH:MM)",
            "error.slot_invalid": "--slot '{value}' is not [YYYY-MM-DD ]HH:MM",
            "error.not_due.day": "{name} is not due yet: next dose {when}",
            "next.tomorrow": "tomorrow at {time}", "next.date": "on {date} at {time}",
            // `dosebar config` (issue 24): labels and where a setting came from.
            "config.database": "database", "config.config_file": "config file", "config.dir": "shared directory",
            "config.language": "language", "config.zone": "time zone",
            "config.from.flag": "from {name}", "config.from.env": "from ${name}", "config.from.file": "from the config file",
            "config.from.default": "default", "config.missing": "does not exist yet",
            "config.problem": "not used: {problem}",
            "config.dir_fallback": "fallback: XDG_RUNTIME_DIR is not set",
            "config.bad_tz": "unknown zone '{tz}': UTC instead",
            "config.no_color": "none (the bar's own colour)",
            "config.clock": "clock", "config.system_clock": "the system clock",
            "error.effective_before_start": "{name} starts on {date}: --effective must be that day or later",
            // Usage errors (issue 24): ArgumentParser's own, reworded (UsageErrorText), and dosebar's checks of
            // its flags. Thrown in English; the entry point shows them in the user's language.
            "usage.see_help": "{message} (see '{help}')",
            "usage.unknown_option": "unknown option '{option}'",
            "usage.unknown_option_suggest": "unknown option '{option}': did you mean '{suggestion}'?",
            "usage.negative": "'{value}' is a negative number: give 0 or more",
            "usage.negative_value": "{option}: '{value}' is a negative number: give 0 or more",
            "usage.missing_value": "{option} needs a value: {option} {value}",
            "usage.missing_value.bare": "{option} needs a value",
            "usage.invalid_value": "{option}: '{value}' is not one of {values}",
            "usage.invalid_value.reason": "{option}: '{value}': {reason}",
            "usage.invalid_value.bare": "{option}: '{value}' is not a valid value",
            "usage.invalid_number": "{option}: '{value}' is not a whole number",
            "usage.unexpected": "unexpected argument '{value}'",
            "usage.unexpected_many": "unexpected arguments: {values}",
            "usage.unknown_command": "unknown command '{value}'",
            "usage.missing_argument": "missing {argument}",
            "usage.takes_no_value": "{option} takes no value, not '{value}'",
            "usage.missing_command": "name a command",
            "usage.name_empty": "the medicine name is empty",
            "usage.text_too_long": "{flag}: at most {max} characters",
            "usage.text_control": "{flag}: no line breaks or control characters, please ({code})",
            "usage.duration": "{flag}: '{value}' is not a duration (try 2h, 90m or 1h30m)",
            "usage.duration_unit": "{flag}: '{value}' needs a unit: {n}m for minutes, {n}h for hours",
            "usage.duration_range": "{flag}: '{value}' is out of range (0 to 7 days)",
            "usage.repeat": "{flag}: give whole minutes from 1m to 24h (e.g. 10m), or off, not '{value}'",
            "usage.slot": "--slot: '{value}' is not [YYYY-MM-DD ]HH:MM (e.g. 22:00 or \"{example} 22:00\")",
            "usage.date": "{flag}: '{value}' is not a date (use YYYY-MM-DD, today or yesterday)",
            "usage.weekday": "--days: '{value}' is not a weekday (use mon,tue,wed,thu,fri,sat,sun, weekdays or weekends)",
            "usage.weekday_none": "--days: name at least one weekday",
            "usage.every": "--every: '{value}' is not an interval (use Nd, Nw or Nm, e.g. 3d)",
            "usage.every_range": "--every: '{value}' must be between 1 and 366",
            "usage.cycle": "--cycle: '{value}' is not ACTIVE/REST (e.g. 21/7)",
            "usage.cycle_range": "--cycle: '{value}' needs 1–366 active days and 0–366 rest days",
            "usage.times": "--at: '{value}' is not a time of day (use HH:MM, 00:00 to 23:59)",
            "usage.times_count": "--at: give one to 48 times as HH:MM[,HH:MM…]",
            "usage.at": "--at: '{value}' is not a time (use HH:MM or YYYY-MM-DDTHH:MM)",
            "usage.at_future": "--at {when} is in the future: log a dose when it happens",
            "usage.range_two": "--from, --to and --days: give at most two of them (e.g. --from 2026-10-01 --days 31)",
            "usage.range_days": "--days: give a number of days from 1 to 3660",
            "usage.range_order": "--from {from} is after --to {to}",
            "usage.range_future": "--from {from} is after today ({today}): history has only past days",
            "usage.one_schedule": "choose one schedule: --daily, --days, --every, --cycle or --as-needed",
            "usage.as_needed_limits": "--max-per-day and --min-interval go with --as-needed",
            "usage.max_per_day": "--max-per-day: give a number from 1 to 100",
            "usage.nothing_to_change": "nothing to change: give a schedule flag, a detail such as --dose, or --rename",
            "usage.effective_alone": "--effective goes with a schedule or dose change (--at, --days, --every, --cycle, --window, --dose, --per-dose …)",
            "usage.json_format": "--json and --format {format} contradict each other: give one of them",
            "usage.value_reason": "'{value}': {reason}",
            "daemon.already_running.pid": "a dosebar daemon is already running for {dir} (pid {pid}); stop it first with 'systemctl --user stop dosebar' or 'kill {pid}'",
            "daemon.already_running": "a dosebar daemon is already running for {dir} (another process); stop it first with 'systemctl --user stop dosebar'",
            "usage.at_as_needed": "--at: an as-needed medicine has no fixed times",
            "usage.at_missing": "--at: give the time(s) of day, e.g. --at 08:00,21:00 (or use --as-needed)",
            "usage.window_max": "--window: at most 12h",
            "usage.keep_zone": "--keep-zone: '{zone}' is not a time zone (a name like Asia/Seoul or America/New_York, or none)",
            "usage.keep_zone_as_needed": "--keep-zone: an as-needed medicine has no times to keep",
            "usage.from_far": "--from: {date} is too far in the future",
            "usage.until_before": "--until: {until} is before the course starts ({from})",
            "usage.refill_either": "give either the units to add (refill NAME 30) or --set N",
            "usage.per_dose_count": "--per-dose: give one amount for every time, or one for each of the {times} times of --at, in their order (got {count})",
            "usage.per_dose_conflict": "--per-dose: {time} is given twice with different amounts",
            "usage.per_dose_list": "--per-dose: '{value}' is not a list of amounts (give e.g. 0.5 or 0.5,1)",
            "usage.per_dose_times_stale": "{name} has a different amount per time ({amounts}): give --per-dose too, one amount for all the new times or one for each",
            "amount.at_time": "{amount} at {time}",
            "usage.amount.not_a_number": "{flag} is not a number (give e.g. 30, 0.5 or 2.25)",
            "usage.amount.negative": "{flag} must not be negative",
            "usage.amount.decimals": "{flag} takes at most two decimals (hundredths, e.g. 0.25)",
            "usage.amount.too_large": "{flag} is too large",
            "usage.amount.range": "{flag}: give a number from {min} to {max} (to hundredths, e.g. 0.5)",
            // `list` (issue 24): what each medicine's details line says.
            "list.course": "{from} – {until}", "list.course.open": "since {from}", "list.course.starts": "starts {from}",
            "list.ended": "ended {date}", "list.window": "window {window}", "list.keep_zone": "times on {zone} time wherever you are", "list.urgent": "urgent reminders",
            "list.repeat": "reminders repeat every {interval}", "list.repeat_off": "reminders never repeat", "list.per_dose": "{amount} per dose",
            "list.pending_dose": "dose {dose}", "list.pending_units": "{amount} per dose",
            "list.pending": "from {date}: {schedule}", "list.note": "note: {note}", "list.group": "group {group}",
        ],
        weekdays: ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"],
        weekdayCodes: ["mon", "tue", "wed", "thu", "fri", "sat", "sun"],
        minutes: { m in m < 60 ? "\(m)m" : (m % 60 == 0 ? "\(m / 60)h" : "\(m / 60)h \(m % 60)m") },
        listSeparator: ", "
    )

    public static let korean = Catalog(
        language: "ko",
        templates: [
            MessageID.empty: "등록된 약이 없습니다: 'dosebar add 이름 --at HH:MM'으로 추가하세요",
            MessageID.late4h: "{names} 복용이 {late} 늦었습니다: 지금 복용하거나 건너뛰세요",
            MessageID.late2h: "{names} 복용이 {late} 늦었습니다",
            MessageID.late: "{names} 복용이 {late} 늦었습니다",
            MessageID.doubleDose: "{name} {time} 두 번 복용됨: {takes}",
            MessageID.dueNow: "{names} 드실 시간입니다",
            MessageID.missedYesterday: "어제 {doses} 복용 누락 — 오늘 두 배로 드시지 마세요",
            "dose.name_time": "{name} {time}", "dose.count": "{count}회분",
            MessageID.zoneChanged: "이제 {zone} 시간 기준입니다 ({time}부터, 이전 {was}): 복용 시간은 이 시계를 따르고 지난 날은 그대로입니다",
            MessageID.travelGap: "{name}: 다음 복용이 마지막 복용 후 {gap}시간 뒤입니다 (평소 {usual}시간). 평소 간격을 지키려면 이곳 시간 {time}에 복용하거나 (`dosebar take {name} --slot {slot}`), {was} 시간을 유지하세요: `dosebar edit {name} --keep-zone {was}`",
            MessageID.travelGapLater: "{name}: 다음 복용이 마지막 복용 후 {gap}시간 뒤인 이곳 시간 {next}입니다 (평소 {usual}시간). 평소 간격을 지키려면 {was} 시간을 유지하세요: `dosebar edit {name} --keep-zone {was}`",
            MessageID.lowStock: "{name}: {days}일분 남음, 곧 보충하세요",
            MessageID.lowStock + ".one": "{name}: 1일분 남음, 곧 보충하세요",
            MessageID.allDone: "오늘 복용 완료 · {streak}일 연속",
            MessageID.allDoneMilestone: "오늘 복용 완료 · {streak}일 연속 달성!",
            MessageID.restDay: "{name}: 휴약 {length}일 중 {day}일째, {weekday}에 재개",
            MessageID.nextUp: "다음: {time} {names}",
            MessageID.moveSuggestion: "{name} {time} 복용이 최근 7일 중 {count}일 늦거나 누락되었습니다: 시간을 옮겨 보세요",
            MessageID.nothingToday: "오늘은 예정된 복용이 없습니다",
            "count_is.one": "", "count_is.many": "",
            "status.upcoming": "예정", "status.due": "복용 시간", "status.late": "늦음", "status.missed": "누락",
            "status.taken": "복용함", "status.taken_early": "일찍 복용", "status.taken_late": "늦게 복용",
            "status.skipped": "건너뜀",
            "text.empty": "등록된 약 없음", "text.none": "오늘 일정 없음", "text.rest": "휴약 {day}/{length}",
            "text.done": "{done}/{total} · {streak}일 연속", "text.due": "{done}/{total} · {names} 복용 시간",
            "text.late": "{done}/{total} · {names} {late} 늦음", "text.upcoming": "{done}/{total} · {names} {time}",
            "text.missed": "{done}/{total} · 누락",
            "text.low": " · {name} 부족 ({days})", "text.low_unknown": " · {name} 부족", "text.out": " · {name} 재고 없음",
            "tooltip.streak": "연속: {current}일 (최고 {best}일)",
            "tooltip.adherence": "복용률: {days7} (7일), {days30} (30일)",
            "tooltip.none": "오늘은 예정된 복용이 없습니다",
            "as_needed.count": "{name} (필요 시): 오늘 {count}회", "as_needed.count_max": "{name} (필요 시): 오늘 {count}/{max}회",
            "as_needed.next": "{time}부터 가능", "as_needed.none_left": "오늘은 더 없음",
            "cycle.active": "복용 {length}일 중 {day}일째, {date}부터 휴약", "cycle.active.again": "복용 {length}일 중 {day}일째, {date}부터 새 주기",
            "cycle.active.ends": "복용 {length}일 중 {day}일째, {date} 복용 종료",
            "cycle.rest": "휴약 {length}일 중 {day}일째, {date}에 재개", "cycle.rest.ends": "휴약 {length}일 중 {day}일째, {date} 복용 종료",
            "cycle.named": "{name}: {cycle}",
            "notify.due": "복용 시간: {names}", "notify.late": "복용이 늦었어요: {names}",
            "notify.due_body": "{time} · {doses}", "notify.late_body": "{time} 예정, {late} 지남 · {doses}",
            "notify.missed": "{names}: 놓친 복용 — 다음 복용을 두 배로 하지 마세요",
            "notify.missed_body": "{time} 예정분({doses})은 이제 놓친 것으로 처리됩니다: 곧 다음 복용 시간입니다. 다음 복용은 평소대로 한 번만 하세요.",
            "notify.reminder": "다시 알림: {summary}",
            "action.taken": "복용함", "action.snooze": "10분 뒤 다시", "action.skip": "건너뛰기", "action.undo": "되돌리기",
            "notify.took": "복용 기록: {doses}", "notify.took_body": "터미널 없이 기록했어요(바 클릭이나 스크립트). 잘못 눌렀다면 되돌리기를 누르세요.",
            "notify.nothing": "기록된 복용 없음", "notify.nothing_body": "{note}",
            "notify.travel": "{names}: 시간대가 바뀌어 다음 복용 시간이 달라졌습니다",
            "action.confirm": "둘 다 복용함",
            "notify.double_body": "두 기록 모두 보관됩니다. 하나가 잘못된 기록이면: dosebar undo {name}. 둘 다 복용했다면 여기서 확인하세요.",
            "menu.take_all": "지금 먹을 약 모두 복용",
            "menu.slot.yesterday": "어제 {time}", "menu.slot.date": "{date} {time}",
            "history.state.none": "일정 없음", "history.state.rest": "휴약일",
            "history.state.done": "완료: 모든 예정분을 복용 또는 건너뜀, 한 번 이상 복용",
            "history.state.skipped": "모두 건너뜀", "history.state.missed": "복용 없음, 누락 있음",
            "history.state.partial": "일부 복용, 일부 누락",
            "history.decided_after_close": "누락된 뒤에 건너뜀으로 기록한 복용 (건너뜀으로 셈)",
            "report.skipped_after_missed": "누락 후 건너뜀",
            "history.state.pending": "진행 중 (오늘, 또는 아직 복용 가능한 예정분)",
            "month.1": "1월", "month.2": "2월", "month.3": "3월", "month.4": "4월", "month.5": "5월", "month.6": "6월",
            "month.7": "7월", "month.8": "8월", "month.9": "9월", "month.10": "10월", "month.11": "11월", "month.12": "12월",
            "month.year": "{year}년 {month}",
            "week.line": "최근 7일: {days}",
            "report.title": "복약 보고서", "report.period": "{from} – {to} ({days})",
            "report.days": "{count}일", "report.zone": "시간대: {zone}",
            "report.zone_change": "시간대 변경: {date} {time} ({offset})부터 {from} → {to}. 그 전의 복용은 당시 시각 그대로입니다.",
            "report.generated": "{date} {time} 작성",
            "report.date": "{year}년 {month} {day}일 ({weekday})", "report.date.short": "{month} {day}일 ({weekday})",
            "report.day_month": "{month} {day}일", "report.weekdays": "월 화 수 목 금 토 일",
            "report.overall": "전체 요약", "report.medicines": "약별 복용 현황", "report.calendar": "달력",
            "report.twice": "두 기기에서 두 번 복용한 기록", "report.twice_row": "{date} {time} {name}: {takes}",
            "report.twice_confirmed": "두 번 복용 확인됨",
            "history.double_dose": "{name} {date} {time} 두 번 복용: {takes}", "history.double_dose_confirmed": " (확인됨)",
            "report.weekly": "주별 복용률", "report.troubled": "누락되거나 늦은 복용",
            "report.column.medicine": "약",
            "report.column.adherence": "복용률", "report.column.on_time": "정시", "report.column.taken": "복용",
            "report.column.late": "늦음", "report.column.early": "일찍", "report.column.skipped": "건너뜀",
            "report.column.missed": "누락", "report.column.as_needed": "필요 시", "report.column.mean_late": "평균 지연",
            "report.column.most_late": "자주 늦는 시간", "report.column.date": "날짜", "report.column.time": "예정 시간",
            "report.column.status": "상태", "report.column.taken_at": "복용 시각", "report.column.late_by": "지연",
            "report.all": "전체", "report.schedule": "{schedule} {times}", "report.stopped": "{date} 중단",
            "report.until": "{date}까지", "report.taken_of": "{known}회 중 {taken}회 복용",
            "report.note": "복용률: 복용·건너뜀·누락된 복용 중 복용한 비율. 정시: 복용한 것 중 허용 시간 안에 복용한 비율. 오늘 아직 처리되지 않은 복용은 세지 않습니다.",
            "report.outside": "기간 밖", "report.no_outcome": "결과 없음",
            "report.chart": "주별 복용률, {from} – {to}",
            "report.no_troubled": "이 기간에 누락되거나 늦게 복용한 약이 없습니다.",
            "report.no_medicines": "이 기간에 예정된 약이 없습니다.",
            "report.over_limit": "{count}회 한도 초과",
            "history.all": "전체",
            "history.duplicates": "다른 기기에서 온 {count}회 기록은 먼저 기록된 복용이 그 시간을 정합니다 (둘 다 보관).",
            "stats.title": "최근 {days}일 ({from} – {to}), 이전 {days}일 ({previous_from} – {previous_to})과 비교",
            "stats.column.medicine": "약", "stats.column.adherence": "복용률", "stats.column.previous": "이전",
            "stats.column.on_time": "정시", "stats.column.late": "늦음", "stats.column.early": "일찍",
            "stats.column.skipped": "건너뜀", "stats.column.missed": "누락", "stats.column.mean_late": "평균 지연",
            "stats.column.most_late": "잦은 지연",
            "stats.note": "복용률: 복용·건너뜀·누락된 복용 중 복용한 비율.\n정시: 복용한 것 중 허용 시간 안에 복용한 비율.\n잦은 지연: 가장 자주 늦은 예정 시각.",
            "schedule.daily": "매일", "schedule.every_days": "{n}일마다", "schedule.every_weeks": "{n}주마다",
            "schedule.every_months": "{n}개월마다", "schedule.cycle": "{active}일 복용/{rest}일 휴약", "schedule.as_needed": "필요 시",
            "schedule.max_per_day": "하루 최대 {n}회", "schedule.min_interval": "{interval} 간격",
            "confirm.took": "{name}{dose} 복용함 ({slot} 예정분, {when} 복용{timing})",
            "confirm.took_as_needed": "{name}{dose} 복용함 ({when} 복용)", "confirm.took_as_needed_count": "{name}{dose} 복용함 ({when} 복용, {count})",
            "confirm.skipped": "{name} 건너뜀 ({slot} 예정분)",
            "confirm.slot.yesterday": "어제 {time}", "confirm.slot.date": "{date} {time}",
            "confirm.late": ", {duration} 늦음", "confirm.early": ", {duration} 일찍",
            "confirm.count": "오늘 {count}회", "confirm.count_max": "오늘 {count}/{max}회", "confirm.over_limit": ", 한도 초과",
            "confirm.left": " · {amount} 남음", "confirm.left_days": " · {amount} 남음 ({days})",
            "confirm.days": "{count}일분",
            "confirm.low": " · 부족: 곧 보충하세요", "confirm.none_left": " · 재고 없음",
            "cli.undid_taken": "취소함: {name} 복용{slot}{others}.", "cli.undid_skipped": "취소함: {name} 건너뜀{slot}{others}.",
            "cli.undid_slot": " ({time} 예정분)", "cli.undid_slot_of": " ({date} {time} 예정분)",
            "cli.undid_others": ", 함께 기록된 {count}회분도 취소", "cli.undid_others.one": ", 함께 기록된 1회분도 취소",
            "cli.added": "{name} 추가함: {schedule}{times}{from}{stock}.", "cli.times": " {times}", "cli.from": ", {date}부터",
            "cli.added_stock": " · {stock}", "stock.on_hand": "재고 {amount}", "stock.days": " · {days}",
            "cli.updated_dose": "{name}: {date}부터 용량 {dose} (1회 {amount}), 그 전 날짜는 그대로.",
            "report.dose_until": "{date}까지 {dose}", "report.dose_from": "{date}부터 {dose}", "report.dose_units": "1회 {amount}",
            "cli.updated": "{name} 변경함.", "cli.updated_schedule": "{name} 변경함: {schedule}{times}, {date}부터.",
            "cli.archived": "{name} 제거함 (기록은 남습니다). 되돌리기: dosebar resume {name}",
            "cli.on_hand": "{name}: {stock}.",
            "cli.stock_left": "{name}: {stock} 남음",
            "cli.resumed": "{name} 다시 시작함: 오늘부터 일정에 돌아옵니다 (기록과 재고 유지).",
            "cli.purged": "{name}과(와) 복용 기록 {count}개를 영구히 삭제함. 만들어 둔 백업에는 남아 있습니다.",
            "purge.ask": "{name}과(와) 복용 기록 {count}개를 영구히 삭제할까요? 만들어 둔 백업에는 남아 있습니다. 확인하려면 이름을 입력하세요:",
            "purge.kept": "{name} 유지함: 아무것도 삭제하지 않았습니다.",
            "purge.needs_yes": "purge는 {name}과(와) 복용 기록 {count}개를 영구히 삭제합니다; --yes를 붙여 다시 실행하세요",
            "purge.log_held": "다른 프로세스가 데이터베이스를 열고 있었습니다: 그 프로세스가 닫을 때까지 {path}에 삭제된 데이터 일부가 남을 수 있습니다",
            "doctor.temporary_left": "{path}은(는) 중단된 백업이나 복원이 남긴 데이터 사본이며 dosebar가 지울 수 없습니다: 직접 지우세요",
            "purge.not_compacted": "{name}은(는) 삭제되었지만 {path}을(를) 압축하지 못해 복용 기록이 남아 있을 수 있습니다 ({reason}). 공간을 확보한 뒤 실행하세요: sqlite3 '{path}' VACUUM",
            "import.dry_run": "시험 실행: 아무것도 쓰지 않았습니다.",
            "import.added": "{name} 추가함: {schedule}.",
            "import.added_history_only": "{name} 추가함(필요할 때, 보관됨): 기록에 있는 복용이 어느 치료에도 맞지 않습니다.",
            "import.added_rebuilt": "{name} 추가함(보관됨): Dosage에서 지운 치료; 기록으로 복용 일정을 다시 만듦({schedule}).",
            "import.added_unknown": "{name} 추가함(필요할 때): 그 이름의 약이 없었습니다.",
            "import.reused": "{name}: 이미 있는 약을 그대로 두고 복용 기록을 더합니다.",
            "import.doses": "가져온 복용: 복용 {taken}, 건너뜀 {skipped}; 이미 있음 {already}.",
            "import.time_unknown": "복용 중 {count}건은 복용 시각이 없습니다(예정 시각으로 표시).",
            "import.missed": "놓침: {count}건 (dosebar는 놓친 복용을 기록이 없는 것으로 나타내므로 더할 것이 없습니다).",
            "import.no_equivalent": "dosebar에 대응하는 것이 없음(가져오지 않음):",
            "import.no_slot": "{name}: 일정에 없는 날이나 시각의 복용 {taken}건, 건너뜀 {skipped}건",
            "import.ne.doses": "{name}: 시각마다 다른 용량({doses})을 시각별로 지킬 수 없습니다(소수점 아래 두 자리를 넘거나 범위 밖의 양, 또는 한 시각에 두 양): 용량 문구에 시각별 양을 적고, 재고는 복용마다 가장 큰 {largest}씩 뺍니다(재고 부족을 늦지 않게, 일찍 알림)",
            "import.ne.reminder": "{name}: 재고 알림 {units} {unit} (하루 사용량이 없어 일수로 바꿀 수 없음)",
            "import.ne.refill": "{name}: 보충량 {amount} (보충할 때마다 입력: dosebar refill {name} {amount})",
            "import.ne.negative_stock": "{name}: Dosage의 재고 {amount} (0 미만, Dosage에서는 0으로 표시): 0으로 가져옴",
            "import.ne.long_name": "{name}: {length}자 이름을 앞의 {max}자로 자름 (dosebar의 한도)",
            "import.ne.settings": "{name}: {settings}: dosebar에 해당 항목이 없어 가져오지 않음",
            "import.ne.skip_then_take": "{name}: 건너뜀과 복용이 함께 기록된 {count}건 (건너뛴 뒤 늦게 복용): 복용으로 가져옴; 건너뜀은 복용과 함께 둘 곳이 없음",
            "import.ne.skip_again": "{name}: 두 번 건너뛴 {count}건: 건너뜀 하나로 가져옴",
            "import.ne.stock_kept": "{name}: Dosage의 재고 {amount}을(를) {kept}(으)로 가져옴 (dosebar는 소수 둘째 자리까지, 최대 {max})",
            "import.would_add": "{name} 추가 예정: {schedule}.",
            "import.would_add_history_only": "{name} 추가 예정(필요할 때, 보관됨): 기록에 있는 복용이 어느 치료에도 맞지 않습니다.",
            "import.would_add_rebuilt": "{name} 추가 예정(보관됨): Dosage에서 지운 치료; 기록으로 복용 일정을 다시 만듦({schedule}).",
            "import.would_add_unknown": "{name} 추가 예정(필요할 때): 그 이름의 약이 없습니다.",
            "import.would_reuse": "{name}: 이미 있는 약을 그대로 두고 복용 기록을 더할 예정입니다.",
            "import.would_doses": "가져올 복용: 복용 {taken}, 건너뜀 {skipped}; 이미 있음 {already}.",
            "import.line": "{name}: {parts}.",
            "import.would_line": "{name}, 가져올 것: {parts}.",
            "import.part.taken": "복용 {count}",
            "import.part.time_unknown": "그중 시각 모름 {count}",
            "import.part.extra": "그중 추가 복용 {count}(한 예정분의 두 번째 복용이나 예정 없는 시각: 복용으로 세고 예정분으로는 세지 않음)",
            "import.part.skipped": "건너뜀 {count}",
            "import.part.missed": "놓침 {count}",
            "import.part.already": "이미 있음 {count}",
            "import.part.versions": "일정 버전 {count}개",
            "import.part.stock": "재고 {amount}",
            "import.ne.colour": "색 {value}",
            "import.ne.icon": "아이콘 {value}",
            "import.ne.repeat": "{minutes}분마다 반복 알림",
            "import.ne.auto_confirm": "복용 자동 확인",
            "import.ne.later_today": "지금보다 늦은 오늘 시각으로 기록된 복용 {count}건 (Dosage의 일회성 기록): 지금 복용으로 가져옴",
            "cli.today": "{date} {weekday} ({zone}) · {done}/{total} · {streak}일 연속",
            "cli.column.time": "시간", "cli.column.medicine": "약", "cli.column.dose": "용량", "cli.column.status": "상태",
            "cli.column.name": "이름", "cli.column.schedule": "일정", "cli.column.times": "시간", "cli.column.stock": "재고",
            "cli.column.group": "그룹", "cli.archived_mark": "{name} (보관됨)",
            "cli.no_medicines": "등록된 약이 없습니다. 추가하기: dosebar add 아스피린 --at 08:00",
            "cli.wrote": "{dir}에 씀: 타임라인 항목 {entries}개, {changes}", "cli.nothing_changed": "바뀐 파일 없음.",
            "cli.files_changed": "파일 {count}개 바뀜 ({files}).",
            "cli.backup_written": "{path}에 백업함 ({size}): {medications}, {events}.",
            "cli.report_written": "{format} 보고서를 {path}에 저장함.",
            "cli.restored": "{path}에서 복원함 ({medications}, {events}); 바뀌기 전 데이터베이스는 {kept}에 있습니다.",
            "cli.restored.sync_device": "백업은 동기화 기기 {other}에서 만들어졌습니다. 두 기기가 한 동기화 파일에 쓰지 않도록 이 기기는 자신의 {device}를 유지합니다.",
            "cli.restored.sync_device.none": "백업은 동기화 설정 전에 만들어졌습니다. 이 기기는 동기화 기기 {device}와 폴더를 유지합니다.",
            "cli.medicines": "약 {count}개", "cli.events": "기록 {count}개",
            "doctor.zone": "시간대 {zone}, 지금 {now}", "doctor.config": "설정 {path}",
            "doctor.zone_log": "시간대가 {count}번 바뀌었습니다. 마지막은 {time}: {was} → {zone} (`dosebar zone`으로 기록 확인, 지난 날은 그때의 시간대 유지)",
            "doctor.zone_log.one": "{time}부터 시간대가 바뀌었습니다: {was} → {zone} (`dosebar zone`으로 기록 확인, 지난 날은 그때의 시간대 유지)",
            "zone.moved": "이 기기의 시계가 {zone}(으)로 바뀌었습니다 (이전 {was}): {time}부터 복용 시간은 이 시계를 따르고, 지난 날은 그때의 시간대를 유지합니다 (`dosebar zone`으로 기록 확인)",
            "zone.set": "지금({time})부터 {zone}에 있는 것으로 기록합니다 (이전 {was}). 지난 날은 그때의 시간대를 유지합니다.",
            "zone.already": "이미 {zone}에 있습니다. 바뀐 것이 없습니다.",
            "zone.now": "지금 {zone} ({abbr}), {now}.",
            "zone.log": "시간대 기록:",
            "cli.at_twice": "--at {value}: 시간대가 바뀐 뒤 시계가 그 시각을 두 번 가리켰습니다: {choices}. 뜻하는 시각을 오프셋과 함께 주세요",
            "zone.log.first": "처음부터",
            "zone.log.change": "{date} {time} {abbr}부터 ({was_time} {was_abbr})",
            "zone.other": "이 기기의 시계는 {system} ({system_abbr})입니다. 시간은 사용자가 있는 {zone} ({abbr}) 기준으로 표시합니다. 지금 이곳에 있다면: `dosebar zone here`.",
            "doctor.no_config": "{path}에 설정 파일이 없습니다 (기본값 사용)",
            "doctor.database": "데이터베이스 {path} (약 {count}개)",
            "doctor.no_medicines": "등록된 약이 없습니다: dosebar add 이름 --at HH:MM",
            "doctor.no_database": "{path}에 아직 데이터베이스가 없습니다: dosebar add가 만듭니다",
            "doctor.writable": "공유 디렉터리 {path}에 쓸 수 있습니다",
            "doctor.no_runtime_dir": "XDG_RUNTIME_DIR가 설정되지 않았습니다: 바와 데몬이 {path}를 다르게 볼 수 있으니 DOSEBAR_DIR를 설정하세요",
            "doctor.daemon": "데몬 실행 중 (pid {pid})",
            "doctor.no_daemon": "데몬이 실행 중이 아닙니다: 'systemctl --user enable --now dosebar' 또는 'dosebar daemon &'로 시작하세요",
            "doctor.bar": "{bar} 설치됨: {path} 참고",
            "doctor.bar.source": "{bar} 설치됨: 설정 방법은 dosebar 소스의 integrations/{bar}/README.md에 있습니다 ('make install'과 .deb 패키지가 <prefix>/share/dosebar/integrations에 복사합니다)",
            "doctor.problems": "고칠 것 {count}개.",
            "doctor.fine": "모두 정상입니다.",
            "doctor.out_of_range": "{name}: {problem} (이전 버전이나 고장 난 dosebar가 저장한 값이며, 범위를 벗어난 일정은 복용을 보여 주지 않습니다): 'dosebar edit'으로 고치세요",
            "doctor.sync": "{dir}(으)로 동기화 중 (Syncthing 실행 중)",
            "doctor.no_syncthing": "동기화가 설정되어 있지만({dir}) Syncthing이 실행 중이 아닙니다: 'systemctl --user enable --now syncthing'으로 시작하세요",
            "doctor.syncthing_silent": "동기화가 설정되어 있지만({dir}) {address}의 Syncthing API가 응답하지 않습니다: 'systemctl --user restart syncthing'으로 다시 시작하세요",
            "sync.initialised": "이 기기는 {device}입니다. 기록은 {file}에 있습니다 (작업 {count}개).",
            "sync.already": "이 기기({device})는 이미 {dir}(으)로 동기화합니다.",
            "sync.applied": "다른 기기의 작업 {count}개를 반영했습니다.",
            "progress.history": "이 기기의 기록을 쓰는 중",
            "progress.own_file": "이 기기의 파일을 확인하는 중",
            "progress.reading": "다른 기기의 파일을 읽는 중",
            "progress.operations": "다른 기기의 작업을 반영하는 중",
            "progress.doses": "복용 기록을 가져오는 중",
            "progress.days": "지난 날들을 요약하는 중",
            "progress.file": "파일을 읽는 중",
            "progress.rows": "행을 확인하는 중",
            "progress.entries": "기록을 읽는 중",
            "progress.line": "{work}: {done}/{total} · 초당 {rate} · {left} 남음",
            "progress.line.starting": "{work}: {done}/{total}",
            "progress.seconds": "{n}초",
            "progress.log_start": "{work}: {total}개 중 {seconds}초 동안 {done}개 완료",
            "progress.log_end": "{work}: {total}개 중 {done}개를 {seconds}초 만에 완료",
            "sync.status.header": "이 기기는 {device}이며 {dir}(으)로 동기화합니다.",
            "sync.status.device": "{device}{mine}: 작업 {count}개 반영, 마지막 {last}",
            "sync.status.mine": " (이 기기)", "sync.status.none": "없음",
            "sync.status.pending": "; {pending}개는 필요한 작업을 기다리는 중",
            "sync.cloned": "{file}:{line}: 이 컴퓨터가 쓰지 않은 줄이 자기 기기 파일에 있습니다. 이 홈은 다른 컴퓨터에서 복사되었습니다. 이제 기기 {new}(으)로 자기 파일에 쓰고 {old}의 파일은 다른 기기의 것으로 읽습니다. 어느 컴퓨터의 기록도 잃지 않습니다",
            "sync.status.cloned": "이 홈은 다른 컴퓨터에서 복사되었습니다: {at}에 기기 {old}의 파일에서 쓰지 않은 줄을 발견하여 {new}(으)로 계속합니다.",
            "doctor.sync_cloned": "이 홈은 다른 컴퓨터에서 복사되었습니다({at}에 발견): 이제 기기 {new}(으)로 동기화하며 기기 {old}의 파일은 다른 컴퓨터의 것으로 읽습니다. 다시 복사하지 않는 한 할 일은 없습니다",
            "sync.status.skipped": "건너뜀 {file}:{line}: {reason}",
            "sync.status.skipped.more": "건너뜀 {file}의 줄 {count}개 더",
            "sync.status.held": "보류 {origin} ({kind}): {reason}",
            "sync.status.waiting": "대기 {origin} ({kind}): {reason}",
            "error.archived": "{name}: {date}에 보관된 약입니다 ('dosebar list --all'로 볼 수 있습니다)",
            "error.unknown": "'{name}'(이)라는 약이 없습니다 ('dosebar list' 참고)",
            "error.not_removed": "{name}은(는) 제거된 약이 아닙니다 (사용 중; 'dosebar list' 참고)",
            "error.resume_conflict": "{name}을(를) 다시 시작할 수 없습니다: 사용 중인 약 {other}이(가) 같은 이름입니다; 먼저 하나의 이름을 바꾸세요 (dosebar edit {other} --rename 새이름)",
            "error.ambiguous": "'{name}'에 해당하는 약이 여럿입니다({names}): 이름을 더 입력하세요",
            "error.empty_name": "약 이름은 비워 둘 수 없습니다('dosebar list' 참고)",
            "error.no_double_dose": "{name}: 확인할 두 번 복용 기록이 없습니다",
            "error.double_dose_which": "{name}: 두 번 복용한 시간이 여러 개입니다: {slots} 중 하나를 지정하세요",
            "cli.confirmed_double": "확인됨: {name} {time} 두 번 복용 ({takes})",
            "error.limit.max_per_day": "{name}: 오늘 이미 {count}회 복용했습니다 (하루 최대 {max}회). 다음 복용 가능: {next} — 그래도 기록하려면 'dosebar take {force} --force'",
            "error.limit.min_interval": "{name}: 마지막 복용 {last}, 최소 {gap} 간격. 다음 복용 가능: {next} — 그래도 기록하려면 'dosebar take {force} --force'",
            "limit.next.today": "{time}", "limit.next.tomorrow": "내일 {time}", "limit.next.date": "{date} {time}",
            "error.not_due": "{name}: 아직 복용 시간이 아닙니다 (다음 복용 {time})",
            "error.not_scheduled_today": "{name}: 오늘은 예정된 복용이 없습니다",
            "error.nothing_to_take": "{name}: 오늘 더 복용할 것이 없습니다 (모두 처리됨)",
            "error.nothing_to_skip": "{name}: 오늘 더 건너뛸 것이 없습니다",
            "error.resolved_on": "{name}: {date}의 복용은 모두 처리되었습니다",
            "error.not_scheduled_on": "{name}: {date}에는 예정된 복용이 없습니다",
            "error.nothing_due_next": "지금 복용할 약이 없습니다. 다음: {time} {name} — 일부러 미리 복용하려면: 'dosebar take {hint} --slot {slot}'",
            "error.nothing_due_next.day": "지금 복용할 약이 없습니다. 다음: {when} {name}",
            "error.nothing_due": "지금 복용할 약이 없고 오늘 남은 복용도 없습니다",
            "slot.yesterday": "어제 {time}", "slot.carried_name": "{name} (어제 {time})",
            "slot.named": "{date} {time}", "slot.named.today": "{time}", "slot.named.yesterday": "어제 {time}",
            "slot.named.tomorrow": "내일 {time}",
            "error.slot_taken": "{name}: {slot} 예정분은 이미 {when}에 복용했습니다{unknown} — 다시 기록하려면 먼저 'dosebar undo {hint}'",
            "error.slot_taken.unknown": " (시각 기록 없음)",
            "error.slot_skipped": "{name}: {slot} 예정분은 {when}에 건너뛰었습니다 — 다시 기록하려면 먼저 'dosebar undo {hint}'",
            "error.untracked": "{name}: {slot} 예정분은 dosebar가 {name}을(를) 기록하기 전입니다 (추가: {added}). 기록하려면: dosebar {verb} {hint} --slot {key}",
            "error.no_slot": "{name}: {date}에 {time} 예정분이 없습니다{times}",
            "error.no_slot.times": " (그날의 예정: {times})",
            "error.nothing_at": "{name}: {when}에 복용할 예정분이 없었습니다 (다음: {next}). --slot [날짜 ]HH:MM으로 지정하세요",
            "error.nothing_at.none": "{name}: {when}에 복용할 예정분이 없었습니다. --slot [날짜 ]HH:MM으로 지정하세요",
            "error.nothing_open_at": "{when}에 복용할 예정분이 없었습니다: 약 이름(dosebar take 이름 --at …)이나 예정분(--slot [날짜 ]HH:MM)을 지정하세요",
            "error.slot_future": "--slot {date} {time}: 아직 오지 않은 날의 예정분입니다. 복용 시간에 기록하세요 (또는 --next)",
            "error.slot_needs_name": "--slot은 한 약의 예정분을 지정합니다: 약 이름을 함께 주세요 (dosebar take 이름 --slot HH:MM)",
            "error.slot_invalid": "--slot '{value}'은(는) [YYYY-MM-DD ]HH:MM 형식이 아닙니다",
            "error.not_due.day": "{name}: 아직 복용 시간이 아닙니다 (다음 복용 {when})",
            "next.tomorrow": "내일 {time}", "next.date": "{date} {time}",
            "config.database": "데이터베이스", "config.config_file": "설정 파일", "config.dir": "공유 디렉터리",
            "config.language": "언어", "config.zone": "시간대",
            "config.from.flag": "출처 {name}", "config.from.env": "출처 ${name}", "config.from.file": "출처 설정 파일",
            "config.from.default": "기본값", "config.missing": "아직 없음",
            "config.problem": "사용 안 함: {problem}",
            "config.dir_fallback": "대체 경로: XDG_RUNTIME_DIR가 설정되지 않음",
            "config.bad_tz": "알 수 없는 시간대 '{tz}': 대신 UTC",
            "config.no_color": "없음 (바 자체 색)",
            "config.clock": "시계", "config.system_clock": "시스템 시계",
            "error.effective_before_start": "{name}은(는) {date}에 시작합니다: --effective는 그날이나 그 이후여야 합니다",
            "usage.see_help": "{message} ('{help}' 참고)",
            "usage.unknown_option": "알 수 없는 옵션 '{option}'",
            "usage.unknown_option_suggest": "알 수 없는 옵션 '{option}': '{suggestion}'을(를) 쓰려고 하셨나요?",
            "usage.negative": "'{value}'은(는) 음수입니다: 0 이상을 주세요",
            "usage.negative_value": "{option}: '{value}'은(는) 음수입니다: 0 이상을 주세요",
            "usage.missing_value": "{option}에 값이 필요합니다: {option} {value}",
            "usage.missing_value.bare": "{option}에 값이 필요합니다",
            "usage.invalid_value": "{option}: '{value}'은(는) 쓸 수 있는 값({values})이 아닙니다",
            "usage.invalid_value.reason": "{option}: '{value}': {reason}",
            "usage.invalid_value.bare": "{option}: '{value}'은(는) 올바른 값이 아닙니다",
            "usage.invalid_number": "{option}: '{value}'은(는) 정수가 아닙니다",
            "usage.unexpected": "예상하지 못한 인수 '{value}'",
            "usage.unexpected_many": "예상하지 못한 인수: {values}",
            "usage.unknown_command": "알 수 없는 명령 '{value}'",
            "usage.missing_argument": "{argument} 인수가 필요합니다",
            "usage.takes_no_value": "{option}은(는) 값을 받지 않습니다: '{value}'",
            "usage.missing_command": "명령을 지정하세요",
            "usage.name_empty": "약 이름이 비어 있습니다",
            "usage.text_too_long": "{flag}: 최대 {max}자",
            "usage.text_control": "{flag}: 줄바꿈이나 제어 문자는 넣을 수 없습니다 ({code})",
            "usage.duration": "{flag}: '{value}'은(는) 기간이 아닙니다 (예: 2h, 90m, 1h30m)",
            "usage.duration_unit": "{flag}: '{value}'에 단위가 필요합니다: 분이면 {n}m, 시간이면 {n}h",
            "usage.duration_range": "{flag}: '{value}'은(는) 범위(0에서 7일)를 벗어납니다",
            "usage.repeat": "{flag}: 1m에서 24h 사이의 분 단위(예: 10m) 또는 off를 주세요. '{value}'은(는) 안 됩니다",
            "usage.slot": "--slot: '{value}'은(는) [YYYY-MM-DD ]HH:MM 형식이 아닙니다 (예: 22:00 또는 \"{example} 22:00\")",
            "usage.date": "{flag}: '{value}'은(는) 날짜가 아닙니다 (YYYY-MM-DD, today 또는 yesterday)",
            "usage.weekday": "--days: '{value}'은(는) 요일이 아닙니다 (mon,tue,wed,thu,fri,sat,sun, weekdays 또는 weekends)",
            "usage.weekday_none": "--days: 요일을 하나 이상 지정하세요",
            "usage.every": "--every: '{value}'은(는) 간격이 아닙니다 (Nd, Nw 또는 Nm, 예: 3d)",
            "usage.every_range": "--every: '{value}'은(는) 1에서 366 사이여야 합니다",
            "usage.cycle": "--cycle: '{value}'은(는) 복용일/휴약일 형식이 아닙니다 (예: 21/7)",
            "usage.cycle_range": "--cycle: '{value}'에는 복용일 1–366일과 휴약일 0–366일이 필요합니다",
            "usage.times": "--at: '{value}'은(는) 시각이 아닙니다 (HH:MM, 00:00부터 23:59까지)",
            "usage.times_count": "--at: 시각을 1개에서 48개까지 HH:MM[,HH:MM…]로 주세요",
            "usage.at": "--at: '{value}'은(는) 시각이 아닙니다 (HH:MM 또는 YYYY-MM-DDTHH:MM)",
            "usage.at_future": "--at {when}은(는) 미래입니다: 복용한 뒤에 기록하세요",
            "usage.range_two": "--from, --to, --days: 최대 두 개만 주세요 (예: --from 2026-10-01 --days 31)",
            "usage.range_days": "--days: 일수를 1에서 3660까지 주세요",
            "usage.range_order": "--from {from}이(가) --to {to}보다 뒤입니다",
            "usage.range_future": "--from {from}이(가) 오늘({today})보다 뒤입니다: 기록은 지난 날에만 있습니다",
            "usage.one_schedule": "일정은 하나만 고르세요: --daily, --days, --every, --cycle 또는 --as-needed",
            "usage.as_needed_limits": "--max-per-day와 --min-interval은 --as-needed와 함께 씁니다",
            "usage.max_per_day": "--max-per-day: 1에서 100까지의 수를 주세요",
            "usage.nothing_to_change": "바꿀 것이 없습니다: 일정 옵션, --dose 같은 세부 사항, 또는 --rename을 주세요",
            "usage.effective_alone": "--effective는 일정 또는 용량 변경(--at, --days, --every, --cycle, --window, --dose, --per-dose …)과 함께 씁니다",
            "usage.json_format": "--json과 --format {format}이(가) 서로 맞지 않습니다: 하나만 주세요",
            "usage.value_reason": "'{value}': {reason}",
            "daemon.already_running.pid": "{dir}에 대한 dosebar 데몬이 이미 실행 중입니다 (pid {pid}). 먼저 'systemctl --user stop dosebar' 또는 'kill {pid}'로 멈추세요",
            "daemon.already_running": "{dir}에 대한 dosebar 데몬이 이미 실행 중입니다 (다른 프로세스). 먼저 'systemctl --user stop dosebar'로 멈추세요",
            "usage.at_as_needed": "--at: 필요 시 복용하는 약에는 정해진 시각이 없습니다",
            "usage.at_missing": "--at: 복용 시각을 주세요, 예: --at 08:00,21:00 (또는 --as-needed)",
            "usage.window_max": "--window: 최대 12h",
            "usage.keep_zone": "--keep-zone: '{zone}'은(는) 시간대가 아닙니다 (Asia/Seoul, America/New_York 같은 이름 또는 none)",
            "usage.keep_zone_as_needed": "--keep-zone: 필요 시 복용하는 약에는 지킬 시간이 없습니다",
            "usage.from_far": "--from: {date}은(는) 너무 먼 미래입니다",
            "usage.until_before": "--until: {until}이(가) 복용 시작일({from})보다 앞입니다",
            "usage.refill_either": "더할 수량(refill 이름 30)이나 --set N 중 하나를 주세요",
            "usage.per_dose_count": "--per-dose: 모든 시간에 한 가지 양을, 또는 --at의 시간 {times}개마다 순서대로 하나씩 주세요 ({count}개를 받음)",
            "usage.per_dose_conflict": "--per-dose: {time}에 서로 다른 양이 두 번 주어졌습니다",
            "usage.per_dose_list": "--per-dose: '{value}'은(는) 양의 목록이 아닙니다 (예: 0.5 또는 0.5,1)",
            "usage.per_dose_times_stale": "{name}은(는) 시간마다 양이 다릅니다 ({amounts}): --per-dose도 주세요 (새 시간 모두에 하나, 또는 시간마다 하나씩)",
            "amount.at_time": "{time} {amount}",
            "usage.amount.not_a_number": "{flag}: 수가 아닙니다 (예: 30, 0.5, 2.25)",
            "usage.amount.negative": "{flag}: 음수는 쓸 수 없습니다",
            "usage.amount.decimals": "{flag}: 소수점 아래 두 자리까지만 됩니다 (예: 0.25)",
            "usage.amount.too_large": "{flag}: 너무 큽니다",
            "usage.amount.range": "{flag}: {min}에서 {max}까지의 수를 주세요 (소수점 아래 두 자리까지, 예: 0.5)",
            "list.course": "{from} – {until}", "list.course.open": "{from}부터", "list.course.starts": "{from} 시작",
            "list.ended": "{date} 종료", "list.window": "허용 범위 {window}", "list.keep_zone": "어디에 있든 {zone} 시간 기준", "list.urgent": "긴급 알림",
            "list.repeat": "알림 {interval}마다 반복", "list.repeat_off": "알림 반복 안 함", "list.per_dose": "1회 {amount}",
            "list.pending_dose": "용량 {dose}", "list.pending_units": "1회 {amount}",
            "list.pending": "{date}부터: {schedule}", "list.note": "메모: {note}", "list.group": "그룹 {group}",
        ],
        weekdays: ["월요일", "화요일", "수요일", "목요일", "금요일", "토요일", "일요일"],
        weekdayCodes: ["월", "화", "수", "목", "금", "토", "일"],
        minutes: { m in m < 60 ? "\(m)분" : (m % 60 == 0 ? "\(m / 60)시간" : "\(m / 60)시간 \(m % 60)분") },
        listSeparator: ", "
    )

    public static let all = [english, korean]

    /// The catalog for a language code or locale (`ko`, `ko_KR.UTF-8`); English otherwise.
    public static func forLanguage(_ code: String?) -> Catalog {
        guard let code = code?.lowercased() else { return .english }
        return code.hasPrefix("ko") ? .korean : .english
    }

    /// The catalog of `language`.
    public static func of(_ language: Language) -> Catalog {
        switch language {
        case .en: .english
        case .ko: .korean
        }
    }

    /// `template`'s `.one` form when `count` is 1, with `{count}` filled.
    public func counted(_ key: String, _ count: Int, _ args: [String: String] = [:]) -> String {
        let k = count == 1 && templates[key + ".one"] != nil ? key + ".one" : key
        return text(k, args.merging(["count": String(count)]) { a, _ in a })
    }

    /// A schedule for a person: `daily`, `mon,wed,fri`, `every 3d`, `as needed (max 3/day, every ≥6h)`;
    /// `매일`, `월,수,금`, `3일마다`, `필요 시 (하루 최대 3회, 6시간 간격)`.
    public func describe(_ schedule: Schedule) -> String {
        switch schedule.recurrence {
        case .daily: return text("schedule.daily")
        case .weekdays(let d) where d.count == 7: return text("schedule.daily")
        case .weekdays(let d): return d.sorted().map { weekdayCodes[$0.rawValue - 1] }.joined(separator: ",")
        case .everyDays(let n): return text("schedule.every_days", ["n": String(n)])
        case .everyWeeks(let n): return text("schedule.every_weeks", ["n": String(n)])
        case .everyMonths(let n): return text("schedule.every_months", ["n": String(n)])
        case .cycle(let a, let r): return text("schedule.cycle", ["active": String(a), "rest": String(r)])
        case .asNeeded(let max, let gap):
            var parts: [String] = []
            if let max { parts.append(text("schedule.max_per_day", ["n": String(max)])) }
            if let gap { parts.append(text("schedule.min_interval", ["interval": minutes(gap / 60)])) }
            let base = text("schedule.as_needed")
            return parts.isEmpty ? base : "\(base) (\(parts.joined(separator: listSeparator)))"
        }
    }

    /// Where a day is in a cycle and what comes next: `day 13 of 21, rest from Thu 11 Dec`,
    /// `rest day 3 of 7, resumes Sat 21 Dec`; `date` writes the day of the turn (default ``shortDate(_:)``).
    public func cycleDay(_ position: CyclePosition, then turn: CycleTurn, date: ((LocalDate) -> String)? = nil) -> String {
        let key: String, day: LocalDate
        switch (position.phase, turn) {
        case (.active, .next(.rest, let on)): key = "cycle.active"; day = on
        case (.active, .next(.active, let on)): key = "cycle.active.again"; day = on
        case (.active, .courseEnds(let on)): key = "cycle.active.ends"; day = on
        case (.rest, .next(_, let on)): key = "cycle.rest"; day = on
        case (.rest, .courseEnds(let on)): key = "cycle.rest.ends"; day = on
        }
        return text(key, ["day": String(position.day), "length": String(position.length), "date": (date ?? shortDate)(day)])
    }

    /// A day near today as the report's short dates write it: `Thu 11 Dec`, `12월 11일 (목)`.
    public func shortDate(_ d: LocalDate) -> String {
        let weekdays = text("report.weekdays").split(separator: " ")
        let weekday = weekdays.count == 7 ? String(weekdays[d.weekday.rawValue - 1]) : self.weekdays[d.weekday.rawValue - 1]
        return text("report.date.short", ["weekday": weekday, "day": String(d.day), "month": month(d.month)])
    }

    /// The amount of a dose in words: `0.5`, or each time's when they differ (`0.5 at 20:00, 1 at
    /// 22:30`), for `list.per_dose` and the like.
    public func amounts(_ dosing: Dosing) -> String {
        guard let list = dosing.perTime else { return dosing.perDose.description }
        return list.map { text("amount.at_time", ["amount": $0.amount.description, "time": $0.time.description]) }.joined(separator: ", ")
    }

    /// A schedule's times, `08:00, 20:00` (empty for as-needed): the one way they are listed.
    public func times(of schedule: Schedule, separator: String = ", ") -> String {
        schedule.times.map(\.description).joined(separator: separator)
    }

    /// A schedule with its times, `daily 08:00, 20:00` (the import summary, the CSV report).
    public func describeWithTimes(_ schedule: Schedule) -> String {
        let times = times(of: schedule)
        return times.isEmpty ? describe(schedule) : describe(schedule) + " " + times
    }

    /// The words for a day's state in history (`all taken`, `모두 복용`).
    public func state(_ state: HistoryState) -> String {
        templates["history.state." + state.rawValue] ?? state.rawValue
    }

    /// A month and year (`Nov 2026`, `2026년 11월`).
    public func month(_ month: Int, year: Int? = nil) -> String {
        let name = templates["month.\(month)"] ?? String(month)
        guard let year else { return name }
        return text("month.year", ["month": name, "year": String(year)])
    }

    /// The word for a dose's status (`taken early`, `늦게 복용`).
    public func status(_ status: SlotStatus) -> String {
        templates["status." + status.rawValue] ?? status.rawValue
    }

    /// `is`/`are` after a list of `count` names (nothing in Korean).
    public func countIs(_ count: Int) -> String {
        templates[count == 1 ? "count_is.one" : "count_is.many"] ?? ""
    }

    /// Fills `{name}` placeholders of the template `key` from `args`.
    public func text(_ key: String, _ args: [String: String] = [:]) -> String {
        Catalog.fill(templates[key] ?? key, args)
    }

    /// Renders a message in this language.
    public func render(_ message: Message) -> RenderedMessage {
        var args: [String: String] = [:]
        var one = false
        for (k, v) in message.args {
            switch v {
            case .text(let s): args[k] = s
            case .number(let n): args[k] = String(n); one = one || n == 1
            case .minutes(let m): args[k] = minutes(m)
            case .weekday(let d): args[k] = weekdays[d.rawValue - 1]
            case .list(let items):
                args[k] = items.joined(separator: listSeparator)
                args["count_is"] = countIs(items.count)
            case .doses(let items):
                args[k] = items.map { self.text("dose.name_time", ["name": $0.name, "time": $0.time]) }.joined(separator: listSeparator)
            }
        }
        // Doses not known by name: their count in words (`2 doses`), once `count` is known.
        for (k, v) in message.args {
            guard case .doses(let items) = v, items.isEmpty else { continue }
            guard case .number(let n)? = message.args["count"] else { continue }
            args[k] = counted("dose.count", n)
        }
        let template = (one ? templates[message.id + ".one"] : nil) ?? templates[message.id] ?? message.id
        let text = Catalog.collapseSpaces(Catalog.fill(template, args))
        return RenderedMessage(id: message.id, severity: message.severity, text: text)
    }

    /// Runs of spaces become one (an empty argument leaves a double space behind).
    static func collapseSpaces(_ s: String) -> String {
        var previousSpace = false
        var out = [UInt8]()
        out.reserveCapacity(s.utf8.count)
        for b in s.utf8 {
            if b == 32 { if previousSpace { continue }; previousSpace = true } else { previousSpace = false }
            out.append(b)
        }
        return out.count == s.utf8.count ? s : String(decoding: out, as: UTF8.self)
    }

    /// Replaces `{key}` with `args[key]`; unknown keys stay as written.
    public static func fill(_ template: String, _ args: [String: String]) -> String {
        let text = template.utf8
        guard var open = text.firstIndex(of: UInt8(ascii: "{")) else { return template }
        // Scanned as bytes (braces are ASCII): by Character it was most of rendering a snapshot's texts.
        var out = [UInt8]()
        out.reserveCapacity(text.count + 32)
        var rest = text.startIndex
        while true {
            out.append(contentsOf: text[rest..<open])
            guard let close = text[open...].firstIndex(of: UInt8(ascii: "}")) else { rest = open; break }
            if let value = args[String(Substring(text[text.index(after: open)..<close]))] {
                out.append(contentsOf: value.utf8)
            } else {
                out.append(contentsOf: text[open...close])
            }
            rest = text.index(after: close)
            guard let next = text[rest...].firstIndex(of: UInt8(ascii: "{")) else { break }
            open = next
        }
        out.append(contentsOf: text[rest...])
        return String(decoding: out, as: UTF8.self)
    }
}
