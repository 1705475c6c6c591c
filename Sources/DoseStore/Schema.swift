import GRDB

/// The database schema: GRDB migrations `v1`, `v2`, … Never edit a migration once released; add the next one.
enum Schema {
    /// `PRAGMA application_id` of every dosebar database: "DOSE" in ASCII.
    static let applicationID: Int32 = 0x444F_5345

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(sql: v1)
        }
        migrator.registerMigration("v2") { db in
            try db.execute(sql: v2)
        }
        migrator.registerMigration("v3-outcomes") { db in
            try db.execute(sql: v3Outcomes)
        }
        migrator.registerMigration("v3-sync") { db in
            try db.execute(sql: v3Sync)
        }
        migrator.registerMigration("v4-slot-index") { db in
            try db.execute(sql: v4SlotIndex)
        }
        migrator.registerMigration("v5-operation-event") { db in
            try db.execute(sql: v5OperationEvent)
        }
        migrator.registerMigration("v6-sync-skipped") { db in
            try db.execute(sql: v6SyncSkipped)
        }
        migrator.registerMigration("v7-purge") { db in
            try db.execute(sql: v7Purge)
        }
        migrator.registerMigration("v8-hundredths") { db in
            try db.execute(sql: v8Hundredths)
        }
        migrator.registerMigration("v9-over-limit") { db in
            try db.execute(sql: v9OverLimit)
        }
        migrator.registerMigration("v10-tracked-from") { db in
            try db.execute(sql: v10TrackedFrom)
        }
        migrator.registerMigration("v11-synced-doses") { db in
            try db.execute(sql: v11SyncedDoses)
        }
        migrator.registerMigration("v12-event-kind-check") { db in
            try v12EventKindCheck(db)
        }
        migrator.registerMigration("v14-dose-versions") { db in
            try db.execute(sql: v14DoseVersions)
        }
        migrator.registerMigration("v15-event-origin") { db in
            try db.execute(sql: v15EventOrigin)
        }
        migrator.registerMigration("v13-double-dose") { db in
            try db.execute(sql: v13DoubleDose)
        }
        migrator.registerMigration("v16-zone-log") { db in
            try db.execute(sql: v16ZoneLog)
        }
        migrator.registerMigration("v17-keep-zone") { db in
            try db.execute(sql: v17KeepZone)
        }
        migrator.registerMigration("v18-reminders") { db in
            try db.execute(sql: v18Reminders)
        }
        migrator.registerMigration("v19-per-time-dose") { db in
            try db.execute(sql: v19PerTimeDose)
        }
        return migrator
    }

    /// A schedule version whose times stay in a zone of their own (`--keep-zone`, DESIGN §3 "Where
    /// the person is"): its name, nil for the person's clock.
    static let v17KeepZone = """
        ALTER TABLE schedule_version ADD COLUMN keep_zone TEXT
            CHECK (keep_zone IS NULL OR length(keep_zone) BETWEEN 1 AND 64);
        """

    /// How a medicine's reminders come (`--urgent`, `--repeat`): critical from the first, and
    /// shown again after so many minutes unanswered (NULL: the configuration's default; 0: never).
    static let v18Reminders = """
        ALTER TABLE medication ADD COLUMN urgent INTEGER NOT NULL DEFAULT 0 CHECK (urgent IN (0, 1));
        ALTER TABLE medication ADD COLUMN repeat_minutes INTEGER
            CHECK (repeat_minutes IS NULL OR repeat_minutes BETWEEN 0 AND 1440);
        """

    /// A schedule version whose doses differ by time (`--per-dose 0.5,1`): the amount of each
    /// time in `PerTimeDose`'s canonical text (`20:00=0.5,22:30=1`), only with a `per_dose` of its
    /// own; NULL: `per_dose` for every time (every version before).
    static let v19PerTimeDose = """
        ALTER TABLE schedule_version ADD COLUMN per_dose_times TEXT
            CHECK (per_dose_times IS NULL OR (per_dose IS NOT NULL AND length(per_dose_times) BETWEEN 13 AND 1024));
        """

    // Dates are `LocalDate.dayNumber` (days since 1970-01-01), times of day `LocalTime.minuteOfDay`,
    // instants Unix seconds (REAL).
    static let v1 = """
        PRAGMA application_id = \(applicationID);

        CREATE TABLE medication (
            id          INTEGER PRIMARY KEY AUTOINCREMENT,
            name        TEXT    NOT NULL CHECK (length(trim(name)) > 0),
            name_key    TEXT    NOT NULL,              -- lowercased, NFC: uniqueness key
            dose        TEXT,
            group_name  TEXT,
            note        TEXT,
            stock       INTEGER CHECK (stock IS NULL OR stock >= 0),
            per_dose    INTEGER NOT NULL DEFAULT 1,
            low_days    INTEGER NOT NULL DEFAULT 7,
            archived_on INTEGER                        -- day number; NULL = active
        );
        CREATE UNIQUE INDEX medication_active_name ON medication(name_key) WHERE archived_on IS NULL;

        CREATE TABLE schedule_version (
            medication_id  INTEGER NOT NULL REFERENCES medication(id),
            effective      INTEGER NOT NULL,           -- day number
            kind           TEXT    NOT NULL CHECK (kind IN ('daily', 'weekdays', 'every_days',
                               'every_weeks', 'every_months', 'cycle', 'as_needed')),
            param_a        INTEGER,                    -- N, cycle active days, as-needed max per day
            param_b        INTEGER,                    -- cycle rest days, as-needed min interval (s)
            weekday_mask   INTEGER NOT NULL DEFAULT 0, -- bit 0 = Monday … bit 6 = Sunday
            times          TEXT    NOT NULL,           -- 'HH:MM,HH:MM'
            window_seconds INTEGER NOT NULL,
            start_day      INTEGER NOT NULL,
            until_day      INTEGER,
            PRIMARY KEY (medication_id, effective)
        ) WITHOUT ROWID;

        CREATE TABLE event (
            id            INTEGER PRIMARY KEY,         -- append-only, so ids grow with time
            medication_id INTEGER NOT NULL REFERENCES medication(id),
            kind          TEXT    NOT NULL CHECK (kind IN ('taken', 'skipped', 'undone')),
            day           INTEGER NOT NULL,            -- slot date, or local date of `at` when as-needed
            slot_time     INTEGER CHECK (slot_time BETWEEN 0 AND 1439),
            at            REAL    NOT NULL,
            logged_at     REAL    NOT NULL,
            target        INTEGER REFERENCES event(id),
            stock_delta   INTEGER NOT NULL DEFAULT 0,
            CHECK ((kind = 'undone') = (target IS NOT NULL))
        );
        CREATE INDEX event_day ON event(day);
        CREATE INDEX event_medication ON event(medication_id, id);
        CREATE UNIQUE INDEX event_target ON event(target) WHERE target IS NOT NULL;
        CREATE TRIGGER event_no_update BEFORE UPDATE ON event
            BEGIN SELECT RAISE(ABORT, 'dosebar events are append-only'); END;
        CREATE TRIGGER event_no_delete BEFORE DELETE ON event
            BEGIN SELECT RAISE(ABORT, 'dosebar events are append-only'); END;

        CREATE TABLE day_summary (
            day      INTEGER PRIMARY KEY,
            total    INTEGER NOT NULL,
            taken    INTEGER NOT NULL,
            on_time  INTEGER NOT NULL,
            skipped  INTEGER NOT NULL,
            missed   INTEGER NOT NULL,
            streak   INTEGER NOT NULL,
            best     INTEGER NOT NULL,
            troubled TEXT    NOT NULL DEFAULT ''       -- 'medicationID@HH:MM,…'
        );

        CREATE TABLE meta (
            key   TEXT PRIMARY KEY,
            value TEXT NOT NULL
        ) WITHOUT ROWID;

        CREATE TABLE notified (
            key TEXT PRIMARY KEY,
            at  REAL NOT NULL
        ) WITHOUT ROWID;
        """

    /// `event.time_known`: 0 for a take imported from a record that did not say when it was taken
    /// (Dosage's "confirmed at an unknown time"); its `at` is then the slot's scheduled instant.
    static let v2 = """
        ALTER TABLE event ADD COLUMN time_known INTEGER NOT NULL DEFAULT 1 CHECK (time_known IN (0, 1));
        """

    /// Finished days as judged for `history`, `stats` and `report` (DoseCore's `DayOutcome` bytes), in the
    /// time zone named in `meta.outcome_zone`: a cache, dropped with `day_summary` when history changes.
    static let v3Outcomes = """
        CREATE TABLE day_outcome (
            day  INTEGER PRIMARY KEY,                  -- day number
            data BLOB    NOT NULL
        );
        """

    /// Sync through a shared folder (DESIGN §10). Every table stays empty until `sync init`, and the
    /// only read outside sync that looks at them is ``StoreReader``'s `effective` (an empty
    /// `sync_duplicate`).
    ///
    /// - `operation`: every operation this database knows, its own and other devices'. `body`: the
    ///   JSON line of the device's file, for this device's own operations and for others' while
    ///   they wait (an applied one from another device keeps `''`: nothing reads it again);
    ///   `applied` 0 while it waits for something it names (a medicine, the dose an undo reverts). `amount`: a stock value, refill units or a dose's units (hundredths since `v8-hundredths`).
    /// - `sync_medicine`: a medicine's global ids (several when two devices added the same name),
    ///   with the name key, device and stamp of the `add` that made each.
    /// - `sync_register`: the stamp of the last write that won for one field of a medicine
    ///   (each detail: `name`, `dose`, `group`, `note`, `per_dose`, `low_days`; `archive`; `v:<effective day>`):
    ///   later stamps win.
    /// - `sync_event` (until `v5-operation-event`): which event an operation wrote or was found to be (a take seen on two devices
    ///   at the same second is one event).
    /// - `sync_duplicate`: events that lost to an earlier event of the same slot; not effective.
    static let v3Sync = """
        CREATE TABLE operation (
            seq      INTEGER PRIMARY KEY,
            id       TEXT    NOT NULL UNIQUE,
            device   TEXT    NOT NULL,
            stamp    TEXT    NOT NULL,
            kind     TEXT    NOT NULL,
            medicine TEXT,
            amount   INTEGER,
            body     TEXT    NOT NULL,
            applied  INTEGER NOT NULL DEFAULT 0 CHECK (applied IN (0, 1))
        );
        CREATE INDEX operation_device ON operation(device, stamp);
        CREATE INDEX operation_medicine ON operation(medicine, stamp);
        CREATE INDEX operation_pending ON operation(applied) WHERE applied = 0;

        CREATE TABLE sync_medicine (
            rank          INTEGER PRIMARY KEY,
            gid           TEXT    NOT NULL UNIQUE,
            medication_id INTEGER NOT NULL REFERENCES medication(id),
            name_key      TEXT    NOT NULL,           -- of the name in the `add`, whatever renames followed
            device        TEXT    NOT NULL,           -- the device that added it
            stamp         TEXT    NOT NULL            -- of the `add`
        );
        CREATE INDEX sync_medicine_local ON sync_medicine(medication_id);
        CREATE INDEX sync_medicine_name ON sync_medicine(name_key);

        CREATE TABLE sync_register (
            medication_id INTEGER NOT NULL REFERENCES medication(id),
            field         TEXT    NOT NULL,
            stamp         TEXT    NOT NULL,
            PRIMARY KEY (medication_id, field)
        ) WITHOUT ROWID;

        CREATE TABLE sync_event (
            op       TEXT    PRIMARY KEY,
            event_id INTEGER NOT NULL REFERENCES event(id)
        ) WITHOUT ROWID;
        CREATE INDEX sync_event_event ON sync_event(event_id);

        CREATE TABLE sync_duplicate (
            event_id INTEGER PRIMARY KEY REFERENCES event(id)
        );
        """

    /// The events of one slot (or the as-needed doses of a medicine's day) without reading the whole
    /// day: sync looks them up for every dose it writes or applies (a dose already there at that
    /// second, the duplicates of a slot).
    static let v4SlotIndex = """
        CREATE INDEX event_slot ON event(medication_id, day, slot_time);
        """

    /// The event an operation wrote (or was found to be) is a column of the operation, set when it is
    /// stored, no longer a row of `sync_event` written beside it: applying another device's long
    /// history wrote three rows per dose (event, operation, link), and the link with its two indexes
    /// keyed by a random id was an eighth of the time and a sixth of the file. `operation_device`,
    /// written once per operation, gives way to `operation_own`, of the rows with a line: this
    /// device's operations (and others' while they wait), which the file is written from; `sync
    /// status` counts all rows.
    static let v5OperationEvent = """
        ALTER TABLE operation ADD COLUMN event_id INTEGER REFERENCES event(id);
        UPDATE operation SET event_id = (SELECT s.event_id FROM sync_event s WHERE s.op = operation.id);
        DROP TABLE sync_event;
        CREATE INDEX operation_event ON operation(event_id) WHERE event_id IS NOT NULL;
        DROP INDEX operation_device;
        CREATE INDEX operation_own ON operation(seq) WHERE body != '';
        """

    /// Lines of other devices' files that sync cannot take (DESIGN §10), kept so each is warned
    /// about once and `sync status` lists them:
    /// - `operation.hash`: ``LineHash`` of the operation's line (NULL for rows stored before this
    ///   migration): the same id arriving with other content is refused, the first kept.
    /// - `operation.origin`: `FILE:LINE` of another device's operation while it waits or is held.
    /// - `sync_skipped`: a line skipped (fails the validation gate, a malformed stamp or id, an
    ///   unknown kind, a reused id), by file and the hash of its content, with its line number,
    ///   the operation id when it has one, and why.
    static let v6SyncSkipped = """
        ALTER TABLE operation ADD COLUMN hash INTEGER;
        ALTER TABLE operation ADD COLUMN origin TEXT;
        CREATE TABLE sync_skipped (
            file   TEXT    NOT NULL,
            hash   INTEGER NOT NULL,
            line   INTEGER NOT NULL,
            op     TEXT,
            reason TEXT    NOT NULL,
            PRIMARY KEY (file, hash)
        ) WITHOUT ROWID;
        """

    /// `purge` (DESIGN §2): a medicine and everything about it deleted for good.
    ///
    /// - Events stay append-only while their medicine exists; once its row is gone (deleted first,
    ///   foreign keys deferred to the end of the transaction) they may be deleted with it.
    /// - `sync_purged`: the global ids of medicines purged here or on another device. An operation
    ///   naming one (from a device that had not seen the purge yet) is skipped, never stored, so
    ///   nothing brings the medicine back.
    static let v7Purge = """
        DROP TRIGGER event_no_delete;
        CREATE TRIGGER event_no_delete BEFORE DELETE ON event
            WHEN EXISTS (SELECT 1 FROM medication WHERE id = OLD.medication_id)
            BEGIN SELECT RAISE(ABORT, 'dosebar events are append-only'); END;

        CREATE TABLE sync_purged (
            gid TEXT PRIMARY KEY
        ) WITHOUT ROWID;
        """

    /// Amounts in hundredths (DESIGN §3 Stock: half tablets). Every amount column held whole units:
    /// `medication.stock`, `medication.per_dose`, `event.stock_delta` and the `amount` of `stock`,
    /// `refill` and `take` operations are multiplied by 100 (saturating: a value an older dosebar
    /// stored out of range stays an integer, clamped). Events are append-only: the guard is lifted
    /// for this one rewrite and put back as it was. `day_summary` holds counts, not amounts.
    static let v8Hundredths = """
        DROP TRIGGER event_no_update;
        UPDATE medication SET
            stock = CASE WHEN stock IS NULL THEN NULL
                         WHEN stock > 92233720368547758 THEN 9223372036854775807
                         ELSE stock * 100 END,
            per_dose = CASE WHEN per_dose > 92233720368547758 THEN 9223372036854775807
                            WHEN per_dose < -92233720368547758 THEN -9223372036854775807
                            ELSE per_dose * 100 END;
        UPDATE event SET stock_delta =
            CASE WHEN stock_delta > 92233720368547758 THEN 9223372036854775807
                 WHEN stock_delta < -92233720368547758 THEN -9223372036854775807
                 ELSE stock_delta * 100 END
            WHERE stock_delta != 0;
        UPDATE operation SET amount =
            CASE WHEN amount > 92233720368547758 THEN 9223372036854775807
                 WHEN amount < -92233720368547758 THEN -9223372036854775807
                 ELSE amount * 100 END
            WHERE amount IS NOT NULL AND kind IN ('stock', 'refill', 'take');
        CREATE TRIGGER event_no_update BEFORE UPDATE ON event
            BEGIN SELECT RAISE(ABORT, 'dosebar events are append-only'); END;
        """

    /// `event.over_limit`: 1 for an as-needed dose recorded with `take --force` beyond
    /// `--max-per-day`/`--min-interval` (DESIGN §2); history and the report mark it.
    static let v9OverLimit = """
        ALTER TABLE event ADD COLUMN over_limit INTEGER NOT NULL DEFAULT 0 CHECK (over_limit IN (0, 1));
        """

    /// `medication.tracked_from` (DESIGN §3 Tracking start): the instant tracking of the medicine starts,
    /// Unix seconds; NULL: tracked from its first schedule day. An existing medicine starts at what
    /// the database knows of its creation: the earlier of the stamp of an `add` that made one of its
    /// global ids (sync; the stamp's first 13 digits are milliseconds) and the earliest `at` of its taken or
    /// skipped events (undone ones too: they happened). An `add` stamped after an event is no creation
    /// (`sync init` stamps the whole history at once), so the event wins; neither known: NULL.
    /// The cached day summaries and outcomes were judged with every slot tracked: dropped, judged again.
    static let v10TrackedFrom = """
        ALTER TABLE medication ADD COLUMN tracked_from REAL;
        UPDATE medication SET tracked_from = (
            SELECT MIN(t) FROM (
                SELECT CAST(substr(s.stamp, 1, 13) AS INTEGER) / 1000.0 AS t FROM sync_medicine s
                WHERE s.medication_id = medication.id
                  AND s.stamp GLOB '[0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9]-*'
                UNION ALL
                SELECT e.at FROM event e
                WHERE e.medication_id = medication.id AND e.kind IN ('taken', 'skipped')
            ) WHERE t > 0 AND t < 1e11
        );
        DELETE FROM day_summary;
        DELETE FROM day_outcome;
        """

    /// Another device's applied takes and skips live in the event they wrote, not in `operation`
    /// (applying another device's 20 years wrote an operation row per dose beside its event: three
    /// quarters of the file and of the time):
    /// - `event.op`, `op_device`, `op_stamp`: the operation that wrote the event (another device's
    ///   take or skip); an undo finds its target through `op` (`event_op`), the stock its takes
    ///   through `event_synced`. `op_units`: a take's units (hundredths); `op_hash`: ``LineHash``
    ///   of its line (the same id with other content is refused).
    /// - `operation` keeps this device's own operations (their lines are appended to its file),
    ///   other devices' that wait or are held, their other kinds (few), and a dose found to be an
    ///   event already there (the same dose at the same second on two devices).
    /// - `sync_device`: per device, the highest stamp of a dose stored in an event: a line stamped
    ///   after it is not in `event` (its id needs no look-up there).
    /// Existing rows move: an applied take or skip of another device (no line) that is the only
    /// operation naming its event. Events are append-only: the guard is lifted for this one
    /// rewrite and put back as it was.
    static let v11SyncedDoses = """
        ALTER TABLE event ADD COLUMN op TEXT;
        ALTER TABLE event ADD COLUMN op_device TEXT;
        ALTER TABLE event ADD COLUMN op_stamp TEXT;
        ALTER TABLE event ADD COLUMN op_units INTEGER;
        ALTER TABLE event ADD COLUMN op_hash INTEGER;
        CREATE TABLE sync_device (
            device TEXT PRIMARY KEY,
            stamp  TEXT NOT NULL
        ) WITHOUT ROWID;

        DROP TRIGGER event_no_update;
        CREATE TEMP TABLE moving AS
            SELECT o.id, o.device, o.stamp, o.amount, o.hash, o.event_id FROM operation o
            WHERE o.applied = 1 AND o.body = '' AND o.kind IN ('take', 'skip') AND o.event_id IS NOT NULL
              AND NOT EXISTS (SELECT 1 FROM operation p WHERE p.event_id = o.event_id AND p.id != o.id);
        UPDATE event SET (op, op_device, op_stamp, op_units, op_hash) =
            (SELECT m.id, m.device, m.stamp, m.amount, m.hash FROM moving m WHERE m.event_id = event.id)
            WHERE id IN (SELECT event_id FROM moving);
        DELETE FROM operation WHERE id IN (SELECT id FROM moving);
        DROP TABLE moving;
        CREATE TRIGGER event_no_update BEFORE UPDATE ON event
            BEGIN SELECT RAISE(ABORT, 'dosebar events are append-only'); END;

        CREATE UNIQUE INDEX event_op ON event(op) WHERE op IS NOT NULL;
        CREATE INDEX event_synced ON event(medication_id, op_stamp) WHERE op IS NOT NULL;
        INSERT INTO sync_device (device, stamp)
            SELECT op_device, max(op_stamp) FROM event WHERE op IS NOT NULL GROUP BY op_device;
        """
}

extension Schema {
    /// Where each event came from (DESIGN §2): `terminal`, `click` (no terminal: a bar, a script),
    /// `notification`, `import`, `device` (another device's, applied by sync). Rows written before
    /// keep NULL: nobody knows. The check is written without `IN` (see ``v12EventKindCheck(_:)``),
    /// `device` first: another device's history is most of what is ever inserted.
    static let v15EventOrigin = """
        ALTER TABLE event ADD COLUMN origin TEXT CHECK (origin IS NULL OR origin = 'device' OR origin = 'click'
            OR origin = 'terminal' OR origin = 'notification' OR origin = 'import');
        """

    /// A slot taken on two devices is a double dose, shown until the person confirms both takes
    /// (DESIGN §10): `double_confirmed` holds the take operations a `confirm` operation (this
    /// device's or another's) named. A double dose is confirmed when every take of its slot is here.
    static let v13DoubleDose = """
        CREATE TABLE double_confirmed (
            op TEXT PRIMARY KEY
        ) WITHOUT ROWID;
        """

    /// The zone log (DESIGN §3 "Where the person is"): the zone the person is in from `at` (Unix
    /// seconds) on. `first`: a device's first entry (the zone it first ran in), not a change: the
    /// earliest of them reaches back to the beginning, the others say nothing (every device that
    /// synced holds the same rows, so all pick the same). `op`: the sync operation that carried it
    /// (this device's or another's), NULL before sync. A set: one row per instant, zone and role.
    static let v16ZoneLog = """
        CREATE TABLE zone_change (
            at    REAL    NOT NULL,
            zone  TEXT    NOT NULL,
            first INTEGER NOT NULL CHECK (first IN (0, 1)),
            op    TEXT,
            PRIMARY KEY (at, zone, first)
        ) WITHOUT ROWID;
        """

    /// The check on `event.kind` as v1 wrote it, and as v12 writes it: the same rule.
    static let eventKindIn = "CHECK (kind IN ('taken', 'skipped', 'undone'))"
    static let eventKindOr = "CHECK (kind = 'taken' OR kind = 'skipped' OR kind = 'undone')"

    /// `event.kind`'s check without `IN`: SQLite (3.40, Debian 12) codes an `IN` of three values
    /// as a temporary B-tree made, filled and dropped at every insert, a large part of inserting an
    /// event, and another device's history inserts hundreds of thousands (Benchmarks/README.md, "Measured reasons in the code").
    ///
    /// A check cannot be altered in place, and the table holds every dose ever taken: instead of
    /// copying it, its text in `sqlite_schema` is rewritten (SQLite's documented way to drop or
    /// change a check, "Making Other Kinds Of Table Schema Changes"), the schema version raised so
    /// every connection reads it again. The new rule is the old one, so no stored row breaks it. A
    /// table whose text does not hold the old check word for word is left as it is.
    /// A schedule version carries the dose in force from its day on (DESIGN §2 `edit`): a dose
    /// change from a date never rewrites the days before it. NULL `per_dose`: a version from before,
    /// whose dose is the medicine's.
    static let v14DoseVersions = """
        ALTER TABLE schedule_version ADD COLUMN dose TEXT;
        ALTER TABLE schedule_version ADD COLUMN per_dose INTEGER CHECK (per_dose IS NULL OR per_dose > 0);
        """

    static func v12EventKindCheck(_ db: Database) throws {
        let version = try Int.fetchOne(db, sql: "PRAGMA schema_version") ?? 0
        try db.execute(sql: "PRAGMA writable_schema = ON")
        try db.execute(sql: """
            UPDATE sqlite_schema SET sql = replace(sql, ?1, ?2) WHERE type = 'table' AND name = 'event' AND instr(sql, ?1) > 0
            """, arguments: [eventKindIn, eventKindOr])
        let changed = db.changesCount > 0
        if changed { try db.execute(sql: "PRAGMA schema_version = \(version + 1)") }
        try db.execute(sql: "PRAGMA writable_schema = OFF")
        if changed { db.clearSchemaCache() }
    }
}

extension DoseStore {
    /// The id of the newest migration this build knows (`dosebar --version`).
    public static var schemaMigration: String { Schema.migrator.migrations.last ?? "none" }
}
