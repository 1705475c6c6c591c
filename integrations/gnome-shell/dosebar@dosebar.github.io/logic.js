// The extension's logic, with no GNOME Shell import so it runs under plain
// `gjs -m` (tests/test_logic.js): parse timeline.json, pick the entry in force,
// expand it, decide whether the data is stale, and build what the panel and the
// menu show. Every function is pure: the time is passed in, as milliseconds since
// the epoch.
//
// timeline.json is read in schema 3 (DESIGN §4: `week` — the 6 days before today —,
// `slots` — every slot any entry lists, carried ones of earlier days first, each with
// its day and the take that resolves it —, `stock` and `cycle` once; each entry's
// `doses` are a status or null per slot, its `week_today` today's state in the 7-day
// strip and `week_yesterday` yesterday's when it differs from the top-level week), and
// in the schemas dosebar wrote before (2: [status, taken_at, late_minutes] per slot;
// 1: every entry a whole snapshot), so an extension updated before dosebar keeps
// working. A higher schema is from a dosebar newer than this extension: the panel
// says to update it.

/** Day states of a snapshot (DESIGN §3), plus `stale` and `error` of our own. */
export const STATES = ['empty', 'late', 'due', 'missed', 'done', 'upcoming', 'rest', 'none', 'stale', 'error'];

/** A symbolic icon per state (Adwaita names), as data. */
export const STATE_ICONS = {
    empty: 'list-add-symbolic',
    late: 'dialog-warning-symbolic',
    due: 'alarm-symbolic',
    missed: 'dialog-error-symbolic',
    done: 'object-select-symbolic',
    upcoming: 'alarm-symbolic',
    rest: 'weather-clear-night-symbolic',
    none: 'alarm-symbolic',
    stale: 'content-loading-symbolic',
    error: 'dialog-question-symbolic',
};

/**
 * The extension's own words, for what it says when it has no data from dosebar to show (no
 * file, an unreadable or outdated one) and for its settings. Every word about the doses —
 * statuses, the Taken actions, the line — is dosebar's, read from `timeline.json` (`words`,
 * the entries' texts), in the language dosebar writes.
 */
export const WORDS = {
    en: {
        stale: 'Out of date: the data is from %s. Is `dosebar daemon` running?',
        staleLabel: 'dosebar: out of date', missing: 'No data yet: run `dosebar export` or start `dosebar daemon`.',
        missingLabel: 'dosebar', bad: 'Cannot read timeline.json: %s', settings: 'Settings',
        newer: 'This timeline.json (schema %s) needs a newer dosebar extension: update the extension.',
        newerLabel: 'dosebar: update the extension',
    },
    ko: {
        stale: '오래된 정보: %s 기준입니다. `dosebar daemon`이 실행 중인가요?',
        staleLabel: 'dosebar: 오래된 정보', missing: '아직 정보가 없습니다: `dosebar export`를 실행하거나 `dosebar daemon`을 시작하세요.',
        missingLabel: 'dosebar', bad: 'timeline.json을 읽을 수 없습니다: %s', settings: '설정',
        newer: '이 timeline.json(스키마 %s)을 읽으려면 더 새로운 dosebar 확장이 필요합니다: 확장을 업데이트하세요.',
        newerLabel: 'dosebar: 확장 업데이트 필요',
    },
};

/** `ko` for a Korean locale name such as `ko_KR.UTF-8`, else `en`. */
export function languageFor(localeName) {
    return String(localeName ?? '').toLowerCase().startsWith('ko') ? 'ko' : 'en';
}

const ACTIONABLE = new Set(['due', 'late']);

function fill(template, value) {
    return template.replace('%s', value);
}

/** The timeline.json schemas this extension reads; the newest is what dosebar writes. */
export const SCHEMAS = [1, 2, 3];

/**
 * Parses the text of timeline.json. Returns `{timeline}` or `{error}` (with
 * `newerSchema` when the file is from a dosebar newer than this extension);
 * never throws. A timeline must have a known schema, a day, a reload_at and at
 * least one entry with an `at`; in schemas 2 and 3, `slots` and, in every entry,
 * as many `doses` as slots (schema 2: triples; schema 3: a status word or null).
 */
export function parseTimeline(text) {
    let data;
    try {
        data = JSON.parse(text);
    } catch (e) {
        return {error: `not JSON (${e.message})`};
    }
    if (data === null || typeof data !== 'object' || Array.isArray(data))
        return {error: 'not a JSON object'};
    if (Number.isInteger(data.schema) && data.schema > Math.max(...SCHEMAS))
        return {error: `schema ${data.schema} is newer than this extension`, newerSchema: data.schema};
    if (!SCHEMAS.includes(data.schema))
        return {error: `unknown schema ${JSON.stringify(data.schema)}`};
    if (!Array.isArray(data.entries) || data.entries.length === 0)
        return {error: 'no entries'};
    if (data.schema >= 2 && !Array.isArray(data.slots))
        return {error: 'no slots'};
    for (const key of ['day', 'reload_at']) {
        if (typeof data[key] !== 'string')
            return {error: `no ${key}`};
    }
    if (Number.isNaN(Date.parse(data.reload_at)))
        return {error: `bad reload_at ${data.reload_at}`};
    for (const entry of data.entries) {
        if (!entry || typeof entry.at !== 'string' || Number.isNaN(Date.parse(entry.at)))
            return {error: 'an entry without a valid "at"'};
        if (data.schema >= 2 && (!Array.isArray(entry.doses) || entry.doses.length !== data.slots.length ||
            !entry.doses.every(data.schema === 2 ? Array.isArray : d => d === null || typeof d === 'string')))
            return {error: `the entry at ${entry.at} has no dose per slot`};
    }
    return {timeline: data};
}

/**
 * The snapshot an entry stands for (a schema-1 entry is already whole). Schema 3: a
 * dose for every slot whose status in the entry is not null — the slot with that
 * status, its taken_at and time_known when the status is taken* (else null and
 * true), late_minutes the whole minutes from `scheduled` to the entry's `at` when it
 * is late; `week` is the top-level `week` (yesterday's state replaced by the entry's
 * `week_yesterday`, if any) followed by today with the entry's `week_today`. Schema 2:
 * each dose is its slot with the entry's [status, taken_at, late_minutes]. Day,
 * timezone, stock and cycle come from the top level. A file without a week (a
 * dosebar before the strip) expands without one. Only the entry shown is expanded.
 */
export function expandEntry(timeline, entry) {
    if (timeline.schema !== 2 && timeline.schema !== 3)
        return entry;
    let doses;
    if (timeline.schema === 2) {
        doses = timeline.slots.map((slot, i) => {
            const [status, takenAt, lateMinutes] = entry.doses[i];
            return {...slot, status, taken_at: takenAt ?? null, late_minutes: lateMinutes ?? null};
        });
    } else {
        const at = Date.parse(entry.at);
        doses = [];
        timeline.slots.forEach((slot, i) => {
            const status = entry.doses[i];
            if (typeof status !== 'string')
                return;
            const taken = status.startsWith('taken');
            doses.push({
                ...slot, status,
                taken_at: taken ? slot.taken_at ?? null : null,
                time_known: taken ? slot.time_known !== false : true,
                late_minutes: status === 'late' ? Math.floor((at - Date.parse(slot.scheduled)) / 60000) : null,
            });
        });
    }
    const {week_today: weekToday, week_yesterday: weekYesterday, ...rest} = entry;
    const whole = {
        ...rest, doses,
        day: timeline.day, timezone: timeline.timezone, stock: timeline.stock ?? [], cycle: timeline.cycle ?? [],
    };
    if (Array.isArray(timeline.week) && typeof weekToday === 'string') {
        const past = [...timeline.week];
        if (typeof weekYesterday === 'string' && past.length > 0)
            past[past.length - 1] = {...past[past.length - 1], state: weekYesterday};
        whole.week = [...past, {day: timeline.day, state: weekToday}];
    }
    return whole;
}

/** The `YYYY-MM-DD` before `day` (a calendar date, no zone involved). */
export function dayBefore(day) {
    const m = /^(\d{4})-(\d\d)-(\d\d)$/.exec(String(day ?? ''));
    if (!m)
        return null;
    return new Date(Date.UTC(+m[1], +m[2] - 1, +m[3] - 1)).toISOString().slice(0, 10);
}

/**
 * The entry in force at `now`: the last whose `at` is not after it (entries are
 * sorted by `at`). Null when `now` is before the first entry.
 */
export function pickEntry(timeline, now) {
    const entries = timeline.entries;
    let lo = 0, hi = entries.length;
    while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (Date.parse(entries[mid].at) <= now)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo === 0 ? null : entries[lo - 1];
}

/**
 * Why the timeline cannot describe `now`, or null if it can: it is for another
 * day than `today` (the local `YYYY-MM-DD`, when given), `now` is at or past its
 * `reload_at`, or before its first entry.
 */
export function staleReason(timeline, now, today = null) {
    if (today !== null && timeline.day !== today)
        return `day ${timeline.day} is not today (${today})`;
    if (now >= Date.parse(timeline.reload_at))
        return `past reload_at ${timeline.reload_at}`;
    if (now < Date.parse(timeline.entries[0].at))
        return `before the first entry ${timeline.entries[0].at}`;
    return null;
}

/**
 * Milliseconds from `now` until the view may change on its own: the next entry's
 * `at` or `reload_at`, whichever comes first (at least 1 s). Null for a stale
 * timeline past its reload_at (only a new file can change it then).
 */
export function msUntilNextChange(timeline, now) {
    const reload = Date.parse(timeline.reload_at);
    let next = reload > now ? reload : null;
    for (const entry of timeline.entries) {
        const at = Date.parse(entry.at);
        if (at > now) {
            if (next === null || at < next)
                next = at;
            break;
        }
    }
    return next === null ? null : Math.max(1000, next - now);
}

/** `HH:MM` of an ISO-8601 instant written with its local offset (no zone lookup). */
export function clockOf(iso) {
    const m = /T(\d\d):(\d\d)/.exec(String(iso ?? ''));
    return m ? `${m[1]}:${m[2]}` : '';
}

/** The snapshot's one-line text without the leading icon (the panel has its own). */
export function stripIcon(text) {
    return String(text ?? '').replace(/^[^\p{L}\p{N}]+/u, '').trim();
}

/** The command line that marks `names` as taken (all due/late doses when empty). */
export function takeArgv(command, dir, names = []) {
    const argv = [command, 'take'];
    if (dir)
        argv.push('--dir', dir);
    if (names.length > 0)
        argv.push('--', ...names);
    return argv;
}

/**
 * The words about doses that dosebar wrote into the timeline (`words`); a file without them
 * (schema 1, from an older dosebar) gets the status names as they are and English actions.
 */
export function doseWords(timeline) {
    const w = timeline?.words ?? {};
    const text = v => (typeof v === 'string' && v !== '' ? v : null);
    const weekLine = text(w.week?.line);
    return {
        status: s => text(w.status?.[s]) ?? String(s).replace('_', ' '),
        take: text(w.take) ?? 'Taken',
        takeAll: text(w.take_all) ?? 'Take all due',
        noDoses: text(w.nothing_today) ?? 'Nothing scheduled today',
        // A carried dose's day and time (`yesterday 22:00`), in dosebar's words; without them the date.
        yesterday: text(w.slot_day?.yesterday) ?? '{date} {time}',
        otherDay: text(w.slot_day?.date) ?? '{date} {time}',
        // The strip exists only with dosebar's words for it: the extension has none of its own.
        week: weekLine === null ? null : {line: weekLine, symbol: state => text(w.week.symbols?.[state]) ?? String(state)},
    };
}

/**
 * The 7-day strip of a snapshot's `week` as dosebar writes it (`Week: ✓ ✓ ◐ ✗ ✓ · ○`): its
 * `words.week.line` with `{days}` replaced by each day's symbol, oldest first, joined by one
 * space. Null without a week or without dosebar's words for it.
 */
export function weekText(week, words) {
    if (!words.week || !Array.isArray(week) || week.length === 0)
        return null;
    const days = week.map(day => words.week.symbol(day?.state)).join(' ');
    return words.week.line.replace('{days}', () => days);
}

/** How one dose's status reads in the menu, e.g. `late`, `taken 08:10` (no time when it is not known). */
export function statusText(dose, words) {
    const word = words.status(dose.status);
    if (dose.taken_at && String(dose.status).startsWith('taken') && dose.time_known !== false)
        return `${word} ${clockOf(dose.taken_at)}`;
    return word;
}

/**
 * When a dose is scheduled, as the menu shows it: `HH:MM` for one of `today`, and for a
 * carried one (a slot of an earlier day still open) its day too, in dosebar's words:
 * `yesterday 22:00`, else `2026-11-19 22:00`.
 */
export function whenText(dose, today, words) {
    const time = clockOf(dose.scheduled);
    const day = typeof dose.day === 'string' ? dose.day : null;
    if (day === null || day === today)
        return time;
    const template = day === dayBefore(today) ? words.yesterday : words.otherDay;
    return template.replace('{date}', () => day).replace('{time}', () => time);
}

/**
 * What the panel and the menu show at `now`.
 *
 * `loaded` is the result of parseTimeline, or null when there is no file yet.
 * Options: `today` (local YYYY-MM-DD), `command` and `dir` (for the take
 * actions), `lang` (`en` or `ko`).
 *
 * Returns {state, iconName, label, styleClass, message, severity, items}, where
 * each item is {kind: 'dose', text, status, action} (action: null or
 * {label, argv}), {kind: 'asNeeded', text} (the line dosebar wrote for an
 * as-needed medicine), {kind: 'cycle', text} (the line dosebar wrote for a
 * medicine in a cycle: its day, on active and rest days alike, and what follows),
 * {kind: 'takeAll', label, argv}, {kind: 'empty', text} or
 * {kind: 'week', text} (the 7-day strip, last).
 */
export function buildView(loaded, now, {today = null, command = 'dosebar', dir = '', lang = 'en'} = {}) {
    const words = WORDS[lang] ?? WORDS.en;
    const result = (state, label, message, severity, items = []) => ({
        state, label, message, severity, items,
        iconName: STATE_ICONS[state] ?? STATE_ICONS.error,
        styleClass: `dosebar-${state}`,
    });
    if (loaded === null)
        return result('error', words.missingLabel, words.missing, 'info');
    if (loaded.newerSchema !== undefined)
        return result('error', words.newerLabel, fill(words.newer, loaded.newerSchema), 'warning');
    if (loaded.error)
        return result('error', words.missingLabel, fill(words.bad, loaded.error), 'warning');

    const timeline = loaded.timeline;
    const stale = staleReason(timeline, now, today);
    const picked = stale === null ? pickEntry(timeline, now) : null;
    if (picked === null)
        return result('stale', words.staleLabel, fill(words.stale, timeline.day), 'warning');
    const entry = expandEntry(timeline, picked);
    const said = doseWords(timeline);

    const doses = Array.isArray(entry.doses) ? entry.doses : [];
    const items = [];
    const due = [];
    for (const dose of doses) {
        const name = String(dose.medication ?? '');
        const what = dose.dose ? `${name} ${dose.dose}` : name;
        const actionable = ACTIONABLE.has(dose.status);
        if (actionable)
            due.push(name);
        items.push({
            kind: 'dose',
            text: `${whenText(dose, entry.day, said)}  ${what} — ${statusText(dose, said)}`,
            status: String(dose.status),
            action: actionable ? {label: said.take, argv: takeArgv(command, dir, [name])} : null,
        });
    }
    if (items.length === 0)
        items.push({kind: 'empty', text: said.noDoses});
    for (const asNeeded of Array.isArray(entry.as_needed) ? entry.as_needed : []) {
        if (typeof asNeeded?.text === 'string' && asNeeded.text !== '')
            items.push({kind: 'asNeeded', text: asNeeded.text});
    }
    // A dosebar before issue 46 wrote no line for a cycle: nothing shown, as before.
    for (const cycle of Array.isArray(entry.cycle) ? entry.cycle : []) {
        if (typeof cycle?.text === 'string' && cycle.text !== '')
            items.push({kind: 'cycle', text: cycle.text});
    }
    if (due.length > 0)
        items.push({kind: 'takeAll', label: `${said.takeAll} (${due.length})`, argv: takeArgv(command, dir)});
    const strip = weekText(entry.week, said);
    if (strip !== null)
        items.push({kind: 'week', text: strip});

    const state = STATES.includes(entry.state) ? entry.state : 'none';
    const message = entry.message ?? {};
    const label = stripIcon(entry.text) || `${entry.counts?.taken ?? 0}/${entry.counts?.total ?? 0}`;
    return result(state, label, String(message.text ?? ''), String(message.severity ?? 'info'), items);
}
