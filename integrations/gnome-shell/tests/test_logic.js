// Tests of the GNOME Shell extension's logic.js under plain gjs (1.74+):
//
//   gjs -m integrations/gnome-shell/tests/test_logic.js [timeline.json NOW]
//
// It feeds the logic timelines of schema 3 (what dosebar writes: carried slots
// of yesterday first, each slot once with its take, a status or null per slot and
// entry), schemas 2 and 1 (an older dosebar: read the same) and schema 4 (a newer
// dosebar: "update the extension"). With a timeline.json written by the real `dosebar export` and the
// instant it was made for, it also checks the view built from it (the scenario
// of integrations/tests: Levothyroxine late, Magnesium due, Omega-3 taken).
// Prints `ok`/`not ok` per check and exits 1 if any failed.
import GLib from 'gi://GLib';
import System from 'system';
import * as Logic from '../dosebar@dosebar.github.io/logic.js';

let failures = 0, count = 0;
function check(name, condition, detail = '') {
    count++;
    if (condition) {
        print(`ok ${count} - ${name}`);
    } else {
        failures++;
        print(`not ok ${count} - ${name}${detail ? `: ${detail}` : ''}`);
    }
}
function equal(name, actual, expected) {
    const a = JSON.stringify(actual), e = JSON.stringify(expected);
    check(name, a === e, `got ${a}, expected ${e}`);
}
const t = iso => Date.parse(iso);
/** A JSON value with every object's keys sorted (undefined members dropped), for comparing. */
function canonical(value) {
    if (Array.isArray(value))
        return value.map(canonical);
    if (value === null || typeof value !== 'object')
        return value;
    return Object.fromEntries(Object.keys(value).sort().filter(k => value[k] !== undefined).map(k => [k, canonical(value[k])]));
}

// A small timeline of 2026-11-22 in New York, first as schema 1 (every entry a
// whole snapshot), then in schema 3 as dosebar writes it now (and in schema 2).
function dose(medication, hhmm, status, extra = {}) {
    const id = {Levothyroxine: 1, Magnesium: 2, Yaz: 3, Night: 4}[medication];
    const day = extra.day ?? '2026-11-22';
    return {medication, medication_id: id, dose: medication === 'Levothyroxine' ? '50 µg' : null, group: null,
        day, scheduled: `${day}T${hhmm}:00-05:00`, status, taken_at: null, time_known: true, late_minutes: null, ...extra};
}
function entry(hhmm, state, doses, text, message = {id: 'next_up', severity: 'info', text: 'Next'}, asNeeded = []) {
    return {schema: 1, at: `2026-11-22T${hhmm}:00-05:00`, day: '2026-11-22', timezone: 'America/New_York',
        state, counts: {total: doses.length, taken: doses.filter(d => d.status.startsWith('taken')).length},
        doses, as_needed: asNeeded, stock: [{medication: 'Magnesium', remaining: 3, days_left: 3, low: true}], cycle: [],
        message, messages: [message], text, tooltip: ''};
}
const ibuprofen = {medication: 'Ibuprofen', taken_today: 1, max_per_day: 3, next_allowed: '2026-11-22T13:00:00-05:00',
    text: 'Ibuprofen (as needed): 1/3 today · next from 13:00'};
const timeline1 = {
    schema: 1, generated_at: '2026-11-22T08:10:00-05:00', day: '2026-11-22', timezone: 'America/New_York',
    reload_at: '2026-11-23T00:00:00-05:00',
    entries: [
        entry('00:00', 'upcoming', [dose('Levothyroxine', '06:00', 'upcoming'), dose('Magnesium', '09:00', 'upcoming')],
            '💊 0/2 · Levothyroxine 06:00'),
        entry('06:00', 'due', [dose('Levothyroxine', '06:00', 'due'), dose('Magnesium', '09:00', 'upcoming')],
            '💊 0/2 · Levothyroxine', {id: 'due_now', severity: 'warning', text: 'Time for Levothyroxine'}),
        entry('09:00', 'late', [dose('Levothyroxine', '06:00', 'late', {late_minutes: 180}),
            dose('Magnesium', '09:00', 'due')], '⏰ 0/2 · Levothyroxine late 3h',
        {id: 'late_2h', severity: 'critical', text: 'Levothyroxine is 3h late'}, [ibuprofen]),
        entry('09:15', 'done', [dose('Levothyroxine', '06:00', 'taken_late', {taken_at: '2026-11-22T09:15:00-05:00'}),
            dose('Magnesium', '09:00', 'taken', {taken_at: '2026-11-22T09:15:00-05:00'})], '✅ 2/2 done', undefined,
        [ibuprofen]),
    ],
};

/** The words dosebar writes into timeline.json, from its catalog (English, Korean). */
const EN_WORDS = {
    status: {upcoming: 'upcoming', due: 'due', late: 'late', missed: 'missed', taken: 'taken',
        taken_early: 'taken early', taken_late: 'taken late', skipped: 'skipped'},
    take: 'Taken', take_all: 'Take all due', nothing_today: 'Nothing scheduled today',
    slot_day: {yesterday: 'yesterday {time}', date: '{date} {time}'},
};
const KO_WORDS = {
    status: {upcoming: '예정', due: '복용 시간', late: '늦음', missed: '누락', taken: '복용함',
        taken_early: '일찍 복용', taken_late: '늦게 복용', skipped: '건너뜀'},
    take: '복용함', take_all: '지금 먹을 약 모두 복용', nothing_today: '오늘은 예정된 복용이 없습니다',
    slot_day: {yesterday: '어제 {time}', date: '{date} {time}'},
};

/** A schema-1 entry less what timeline.json leaves out; for schema 2, also less a dose's day and time_known. */
function wanted(e, schema = 3) {
    const {schema: _s, messages: _m, tooltip: _t, ...want} = e;
    if (schema === 2)
        want.doses = want.doses.map(({day: _d, time_known: _k, ...d}) => d);
    return want;
}

/**
 * The same day in schema 3 (DESIGN §4), written as dosebar does: every slot any entry lists once
 * (first listed first), with the take of the first entry listing it taken; a status or null per slot
 * and entry; with `past` (the 6 days before) the week, yesterday as in the last entry, and each
 * entry's `week_today` (`today[i]`) and `week_yesterday` where `yesterday[i]` differs.
 */
function toSchema3(t, {past = null, today = [], yesterday = []} = {}) {
    const slotKeys = ['medication', 'medication_id', 'dose', 'group', 'day', 'scheduled'];
    const pick = (o, keys) => Object.fromEntries(keys.map(k => [k, o[k]]));
    const key = d => `${d.medication_id}|${d.day}|${d.scheduled}`;
    const slots = [], index = new Map();
    for (const e of t.entries) {
        for (const d of e.doses) {
            if (!index.has(key(d))) {
                index.set(key(d), slots.length);
                slots.push({...pick(d, slotKeys), taken_at: null, time_known: true});
            }
            const slot = slots[index.get(key(d))];
            if (d.status.startsWith('taken') && slot.taken_at === null)
                Object.assign(slot, {taken_at: d.taken_at, time_known: d.time_known});
        }
    }
    const week = past === null ? {} : {week: [...past.slice(0, 5), {...past[5], state: yesterday.at(-1) ?? past[5].state}]};
    return {
        schema: 3, generated_at: t.generated_at, day: t.day, timezone: t.timezone, reload_at: t.reload_at, ...week,
        words: EN_WORDS, slots, stock: t.entries[0].stock, cycle: t.entries[0].cycle,
        entries: t.entries.map((e, i) => {
            const statuses = slots.map(() => null);
            for (const d of e.doses)
                statuses[index.get(key(d))] = d.status;
            const days = past === null ? {} : {week_today: today[i]};
            if (past !== null && yesterday[i] !== undefined && yesterday[i] !== week.week[5].state)
                days.week_yesterday = yesterday[i];
            return {...pick(e, ['at', 'valid_until', 'state', 'counts', 'progress']), ...days, doses: statuses,
                ...pick(e, ['as_needed', 'next', 'streak', 'adherence', 'message', 'text'])};
        }),
    };
}

/** The same day in schema 2, as dosebar wrote it before. */
function toSchema2(t) {
    const slotKeys = ['medication', 'medication_id', 'dose', 'group', 'scheduled'];
    const pick = (o, keys) => Object.fromEntries(keys.map(k => [k, o[k]]));
    return {
        schema: 2, generated_at: t.generated_at, day: t.day, timezone: t.timezone, reload_at: t.reload_at,
        slots: t.entries[0].doses.map(d => pick(d, slotKeys)), stock: t.entries[0].stock, cycle: t.entries[0].cycle,
        words: EN_WORDS,
        entries: t.entries.map(e => ({
            ...pick(e, ['at', 'valid_until', 'state', 'counts', 'progress']),
            doses: e.doses.map(d => [d.status, d.taken_at, d.late_minutes]),
            ...pick(e, ['as_needed', 'next', 'streak', 'adherence', 'message', 'text']),
        })),
    };
}
const timeline = toSchema3(timeline1);
const timeline2 = toSchema2(timeline1);
const text = JSON.stringify(timeline);

// --- parseTimeline
const parsed = Logic.parseTimeline(text);
check('parse: a valid timeline', parsed.timeline !== undefined && parsed.error === undefined, JSON.stringify(parsed.error));
check('parse: not JSON', /not JSON/.test(Logic.parseTimeline('{"schema":').error ?? ''));
check('parse: half a file is an error, not a throw', Logic.parseTimeline(text.slice(0, text.length / 2)).error !== undefined);
check('parse: an array', Logic.parseTimeline('[]').error === 'not a JSON object');
check('parse: null', Logic.parseTimeline('null').error === 'not a JSON object');
equal('parse: schema 3', parsed.timeline?.schema, 3);
check('parse: schema 2 (an older dosebar) is read too', Logic.parseTimeline(JSON.stringify(timeline2)).timeline !== undefined);
check('parse: schema 1 (an older dosebar) is read too', Logic.parseTimeline(JSON.stringify(timeline1)).timeline !== undefined);
const newer = Logic.parseTimeline(JSON.stringify({...timeline, schema: 4, slots: 'whatever it became'}));
check('parse: schema 4 is from a newer dosebar', newer.newerSchema === 4 && /newer/.test(newer.error ?? ''), JSON.stringify(newer));
for (const odd of [0, '2', null, 1.5]) {
    const r = Logic.parseTimeline(JSON.stringify({...timeline, schema: odd}));
    check(`parse: schema ${JSON.stringify(odd)} is unknown, not newer`, /unknown schema/.test(r.error ?? '') && r.newerSchema === undefined,
        JSON.stringify(r));
}
for (const [name, t2] of [['3', timeline], ['2', timeline2]]) {
    check(`parse: schema ${name} without slots`, Logic.parseTimeline(JSON.stringify({...t2, slots: undefined})).error === 'no slots');
    check(`parse: schema ${name} with a dose missing in an entry`, /dose per slot/.test(Logic.parseTimeline(JSON.stringify({
        ...t2, entries: [{...t2.entries[0], doses: t2.entries[0].doses.slice(1)}],
    })).error ?? ''));
    check(`parse: schema ${name} with a dose that is an object`, /dose per slot/.test(Logic.parseTimeline(JSON.stringify({
        ...t2, entries: [{...t2.entries[0], doses: timeline1.entries[0].doses}],
    })).error ?? ''));
}
check('parse: schema 3 with a triple (schema 2\'s dose)', /dose per slot/.test(Logic.parseTimeline(JSON.stringify({
    ...timeline, entries: [{...timeline.entries[0], doses: timeline2.entries[0].doses}],
})).error ?? ''));
check('parse: schema 3 with a number for a status', /dose per slot/.test(Logic.parseTimeline(JSON.stringify({
    ...timeline, entries: [{...timeline.entries[0], doses: timeline.entries[0].doses.map(() => 1)}],
})).error ?? ''));
check('parse: no entries', Logic.parseTimeline(JSON.stringify({...timeline, entries: []})).error === 'no entries');
check('parse: an entry without at', /at/.test(Logic.parseTimeline(JSON.stringify({...timeline, entries: [{}]})).error ?? ''));
check('parse: bad reload_at', /reload_at/.test(Logic.parseTimeline(JSON.stringify({...timeline, reload_at: 'soon'})).error ?? ''));

// --- pickEntry: the last entry whose at <= now
const at = iso => Logic.pickEntry(timeline, t(iso))?.at ?? null;
equal('pick: before the first entry', at('2026-11-21T23:59:59-05:00'), null);
equal('pick: exactly the first', at('2026-11-22T00:00:00-05:00'), '2026-11-22T00:00:00-05:00');
equal('pick: between entries', at('2026-11-22T07:30:00-05:00'), '2026-11-22T06:00:00-05:00');
equal('pick: one ms before an entry', at('2026-11-22T08:59:59.999-05:00'), '2026-11-22T06:00:00-05:00');
equal('pick: exactly an entry', at('2026-11-22T09:00:00-05:00'), '2026-11-22T09:00:00-05:00');
equal('pick: the same instant in UTC', at('2026-11-22T14:00:00Z'), '2026-11-22T09:00:00-05:00');
equal('pick: after the last', at('2026-11-22T23:00:00-05:00'), '2026-11-22T09:15:00-05:00');

// --- expandEntry: slots + the entry's statuses (schema 3) or triples (schema 2) + the top level = the schema-1 entry
for (const [i, e] of timeline.entries.entries()) {
    const whole = Logic.expandEntry(timeline, e);
    equal(`expand: entry ${e.at} is the snapshot less schema, messages, tooltip`, canonical(whole), canonical(wanted(timeline1.entries[i])));
}
for (const [i, e] of timeline2.entries.entries()) {
    const whole = Logic.expandEntry(timeline2, e);
    equal(`expand schema 2: entry ${e.at} is the snapshot less schema, messages, tooltip`, canonical(whole),
        canonical(wanted(timeline1.entries[i], 2)));
}
check('expand: a schema-1 entry is already whole', Logic.expandEntry(timeline1, timeline1.entries[1]) === timeline1.entries[1]);

// --- staleReason
equal('stale: in the day', Logic.staleReason(timeline, t('2026-11-22T09:30:00-05:00'), '2026-11-22'), null);
check('stale: another day', /not today/.test(Logic.staleReason(timeline, t('2026-11-22T09:30:00-05:00'), '2026-11-23') ?? ''));
check('stale: at reload_at', /reload_at/.test(Logic.staleReason(timeline, t('2026-11-23T00:00:00-05:00')) ?? ''));
check('stale: before the first entry', /before/.test(Logic.staleReason(timeline, t('2026-11-21T23:00:00-05:00')) ?? ''));

// --- msUntilNextChange: the next entry or reload_at
equal('next change: to the next entry', Logic.msUntilNextChange(timeline, t('2026-11-22T08:00:00-05:00')), 3600 * 1000);
equal('next change: to reload_at after the last entry', Logic.msUntilNextChange(timeline, t('2026-11-22T23:00:00-05:00')), 3600 * 1000);
equal('next change: at least a second', Logic.msUntilNextChange(timeline, t('2026-11-22T08:59:59.900-05:00')), 1000);
equal('next change: none past reload_at', Logic.msUntilNextChange(timeline, t('2026-11-23T01:00:00-05:00')), null);

// --- small helpers
equal('clock: local wall time of the instant', Logic.clockOf('2026-11-22T21:05:00-05:00'), '21:05');
equal('clock: garbage', Logic.clockOf(null), '');
equal('stripIcon: emoji', Logic.stripIcon('⏰ 1/4 · Levothyroxine late 3h'), '1/4 · Levothyroxine late 3h');
equal('stripIcon: emoji with variation selector', Logic.stripIcon('⚠️ missed'), 'missed');
equal('stripIcon: ascii set', Logic.stripIcon('[!] 1/4'), '1/4');
equal('stripIcon: Hangul kept', Logic.stripIcon('💊 오메가3 21:00'), '오메가3 21:00');
equal('takeArgv: one dose, with a dir', Logic.takeArgv('/b/dosebar', '/run/d', ['-odd name']),
    ['/b/dosebar', 'take', '--dir', '/run/d', '--', '-odd name']);
equal('takeArgv: all due, default dir', Logic.takeArgv('dosebar', ''), ['dosebar', 'take']);
equal('language: ko_KR.UTF-8', Logic.languageFor('ko_KR.UTF-8'), 'ko');
equal('language: C', Logic.languageFor('C'), 'en');
check('every state has an icon', Logic.STATES.every(s => typeof Logic.STATE_ICONS[s] === 'string'));
check('both languages have the same words',
    JSON.stringify(Object.keys(Logic.WORDS.en).sort()) === JSON.stringify(Object.keys(Logic.WORDS.ko).sort()));

// --- buildView
const opts = {today: '2026-11-22', command: 'dosebar', dir: '/run/user/1000/dosebar'};
let v = Logic.buildView(parsed, t('2026-11-22T09:10:00-05:00'), opts);
equal('view late: state', v.state, 'late');
equal('view late: icon', v.iconName, 'dialog-warning-symbolic');
equal('view late: style class', v.styleClass, 'dosebar-late');
equal('view late: label without the icon', v.label, '0/2 · Levothyroxine late 3h');
equal('view late: message', [v.message, v.severity], ['Levothyroxine is 3h late', 'critical']);
equal('view late: dose rows', v.items.filter(i => i.kind === 'dose').map(i => i.text),
    ['06:00  Levothyroxine 50 µg — late', '09:00  Magnesium — due']);
equal('view late: a Taken action per due/late dose', v.items.filter(i => i.action).map(i => i.action.argv),
    [['dosebar', 'take', '--dir', '/run/user/1000/dosebar', '--', 'Levothyroxine'],
        ['dosebar', 'take', '--dir', '/run/user/1000/dosebar', '--', 'Magnesium']]);
equal('view late: take all due', v.items.filter(i => i.kind === 'takeAll').map(i => [i.label, i.argv]),
    [['Take all due (2)', ['dosebar', 'take', '--dir', '/run/user/1000/dosebar']]]);
equal('view late: each as-needed medicine with the line dosebar wrote', v.items.filter(i => i.kind === 'asNeeded'),
    [{kind: 'asNeeded', text: 'Ibuprofen (as needed): 1/3 today · next from 13:00'}]);
equal('view late: item order', v.items.map(i => i.kind), ['dose', 'dose', 'asNeeded', 'takeAll']);

v = Logic.buildView(parsed, t('2026-11-22T12:00:00-05:00'), opts);
equal('view done: state and label', [v.state, v.label], ['done', '2/2 done']);
equal('view done: taken times, then the as-needed line', v.items.map(i => i.text),
    ['06:00  Levothyroxine 50 µg — taken late 09:15', '09:00  Magnesium — taken 09:15',
        'Ibuprofen (as needed): 1/3 today · next from 13:00']);
check('view done: no action, no take-all', v.items.every(i => !i.action && i.kind !== 'takeAll'));

// The words about doses are the ones dosebar wrote (its language), not the extension's.
const parsedKo = Logic.parseTimeline(JSON.stringify({...timeline, words: KO_WORDS}));
v = Logic.buildView(parsedKo, t('2026-11-22T07:00:00-05:00'), opts);
equal('view ko: words', v.items.filter(i => i.kind === 'dose').map(i => i.text), ['06:00  Levothyroxine 50 µg — 복용 시간', '09:00  Magnesium — 예정']);
equal('view ko: action label', v.items.find(i => i.action).action.label, '복용함');
equal('view ko: take all', v.items.find(i => i.kind === 'takeAll').label, '지금 먹을 약 모두 복용 (1)');
v = Logic.buildView(parsed, t('2026-11-22T07:00:00-05:00'), {...opts, lang: 'ko'});
equal('view: a Korean desktop shows the words dosebar wrote', v.items.filter(i => i.kind === 'dose').map(i => i.text),
    ['06:00  Levothyroxine 50 µg — due', '09:00  Magnesium — upcoming']);
check('the extension keeps no status words of its own', Object.keys(Logic.WORDS.en).every(k => !(k in EN_WORDS.status)));

v = Logic.buildView(parsed, t('2026-11-23T08:00:00-05:00'), {...opts, today: '2026-11-23'});
equal('view stale: yesterday\'s file the next morning', [v.state, v.items.length], ['stale', 0]);
check('view stale: says which day', v.message.includes('2026-11-22'), v.message);
v = Logic.buildView(parsed, t('2026-11-23T00:30:00-05:00'));
equal('view stale: past reload_at without a today', v.state, 'stale');

v = Logic.buildView(null, t('2026-11-22T09:30:00-05:00'), opts);
equal('view: no file yet', [v.state, v.iconName], ['error', 'dialog-question-symbolic']);
v = Logic.buildView(Logic.parseTimeline('{oops'), t('2026-11-22T09:30:00-05:00'), opts);
check('view: a broken file says so', v.state === 'error' && v.message.includes('not JSON'), v.message);

// Schemas 1 and 2 (an older dosebar) show the same as schema 3 at every instant.
const parsed1 = Logic.parseTimeline(JSON.stringify(timeline1));
const parsed2 = Logic.parseTimeline(JSON.stringify(timeline2));
for (const iso of ['2026-11-22T00:30:00-05:00', '2026-11-22T07:00:00-05:00', '2026-11-22T09:10:00-05:00',
    '2026-11-22T12:00:00-05:00', '2026-11-23T08:00:00-05:00']) {
    const a = Logic.buildView(parsed1, t(iso), opts), b = Logic.buildView(parsed, t(iso), opts);
    equal(`schema 1 and 3 give the same view at ${iso}`, a, b);
    equal(`schema 2 and 3 give the same view at ${iso}`, Logic.buildView(parsed2, t(iso), opts), b);
}
// Without the line (a schema-1 file of a dosebar before as-needed lines), no as-needed row.
const noLine = {...timeline1, entries: timeline1.entries.map(e => ({...e, as_needed: e.as_needed.map(({text: _, ...rest}) => rest)}))};
v = Logic.buildView(Logic.parseTimeline(JSON.stringify(noLine)), t('2026-11-22T09:10:00-05:00'), opts);
check('view: an as-needed item without a line is not shown', v.items.every(i => i.kind !== 'asNeeded'), JSON.stringify(v.items));

// Issue 46: each medicine in a cycle with the line dosebar wrote (its day, on active and rest days
// alike, and what follows), after the as-needed lines; a cycle item without a line (a dosebar
// before issue 46) shows nothing. Schema 3 has `cycle` once at the top, schema 1 in every entry.
const cycleYaz = {medication: 'Yaz', phase: 'active', day: 13, length: 21, next: '2026-12-01',
    text: 'Yaz: day 13 of 21, rest from Tue 1 Dec'};
const cyclePill = {medication: 'Pill', phase: 'rest', day: 3, length: 7, next: '2026-11-27',
    text: 'Pill: rest day 3 of 7, resumes Fri 27 Nov'};
const oldCycle = {medication: 'Old', phase: 'active', day: 2, length: 21};
for (const [name, file] of [['schema 3', {...timeline, cycle: [cycleYaz, cyclePill, oldCycle]}],
    ['schema 1', {...timeline1, entries: timeline1.entries.map(e => ({...e, cycle: [cycleYaz, cyclePill, oldCycle]}))}]]) {
    v = Logic.buildView(Logic.parseTimeline(JSON.stringify(file)), t('2026-11-22T09:10:00-05:00'), opts);
    equal(`view (${name}): a line per cycle with one, rest days too`, v.items.filter(i => i.kind === 'cycle'),
        [{kind: 'cycle', text: cycleYaz.text}, {kind: 'cycle', text: cyclePill.text}]);
    equal(`view (${name}): the cycle lines after the as-needed ones`, v.items.map(i => i.kind),
        ['dose', 'dose', 'asNeeded', 'cycle', 'cycle', 'takeAll']);
}
v = Logic.buildView(parsed, t('2026-11-22T09:10:00-05:00'), opts);
check('view: no cycle, no cycle line', v.items.every(i => i.kind !== 'cycle'), JSON.stringify(v.items));

// Schema 4: a dosebar newer than this extension. Clearly says so, in both languages.
v = Logic.buildView(Logic.parseTimeline(JSON.stringify({...timeline, schema: 4})), t('2026-11-22T09:10:00-05:00'), opts);
equal('view schema 4: error state, no items', [v.state, v.items.length], ['error', 0]);
check('view schema 4: the menu says a newer extension is needed',
    v.message === 'This timeline.json (schema 4) needs a newer dosebar extension: update the extension.', v.message);
check('view schema 4: so does the panel', /update the extension/.test(v.label), v.label);
v = Logic.buildView(Logic.parseTimeline(JSON.stringify({...timeline, schema: 4})), t('2026-11-22T09:10:00-05:00'), {...opts, lang: 'ko'});
check('view schema 4, ko', v.message.includes('스키마 4') && v.message.includes('dosebar 확장'), v.message);

const empty = {...timeline, slots: [], entries: [{...toSchema2({...timeline1, entries: [entry('00:00', 'empty', [], '💊 No medicines yet')]}).entries[0],
    message: {id: 'empty', severity: 'info', text: 'Add one'}}]};
v = Logic.buildView(Logic.parseTimeline(JSON.stringify(empty)), t('2026-11-22T10:00:00-05:00'), opts);
equal('view empty: a placeholder row', v.items, [{kind: 'empty', text: 'Nothing scheduled today'}]);
equal('view empty: state', v.state, 'empty');

// --- the 7-day strip (DESIGN §4 `week`): the 6 days before today once at the top level, each
// entry today's state (`week_today`); the menu's strip uses the symbols and words dosebar wrote.
const PAST = [['2026-11-16', 'done'], ['2026-11-17', 'partial'], ['2026-11-18', 'missed'], ['2026-11-19', 'skipped'],
    ['2026-11-20', 'rest'], ['2026-11-21', 'none']].map(([day, state]) => ({day, state}));
// Today per entry: not complete until both doses are taken at 09:15.
const TODAY = ['pending', 'pending', 'pending', 'done'];
const EN_WEEK = {line: 'Week: {days}', symbols: {none: '·', rest: '☾', done: '✓', skipped: '⊘', missed: '✗', partial: '◐', pending: '○'}};
function withWeek(t2, weekWords = EN_WEEK) {
    return {...t2, week: PAST, words: {...t2.words, week: weekWords},
        entries: t2.entries.map((e, i) => ({...e, week_today: TODAY[i]}))};
}
const weekly = withWeek(timeline);
const parsedWeekly = Logic.parseTimeline(JSON.stringify(weekly));
check('week: a timeline with a week parses', parsedWeekly.timeline !== undefined, JSON.stringify(parsedWeekly.error));
for (const [i, e] of weekly.entries.entries()) {
    const whole = Logic.expandEntry(weekly, e);
    const {schema: _s, messages: _m, tooltip: _t, ...want} = timeline1.entries[i];
    want.week = [...PAST, {day: '2026-11-22', state: TODAY[i]}];
    equal(`week: entry ${e.at} expands to the snapshot with its week, without week_today`, canonical(whole), canonical(want));
}
check('week: a schema-2 file without a week expands without one',
    timeline.entries.every(e => !('week' in Logic.expandEntry(timeline, e))));

v = Logic.buildView(parsedWeekly, t('2026-11-22T09:10:00-05:00'), opts);
equal('week view: the strip, last, oldest day first, today pending', v.items.filter(i => i.kind === 'week'),
    [{kind: 'week', text: 'Week: ✓ ◐ ✗ ⊘ ☾ · ○'}]);
equal('week view: item order', v.items.map(i => i.kind), ['dose', 'dose', 'asNeeded', 'takeAll', 'week']);
v = Logic.buildView(parsedWeekly, t('2026-11-22T12:00:00-05:00'), opts);
equal('week view: today done once both are taken', v.items.at(-1), {kind: 'week', text: 'Week: ✓ ◐ ✗ ⊘ ☾ · ✓'});
v = Logic.buildView(Logic.parseTimeline(JSON.stringify(withWeek(timeline,
    {line: '최근 7일: {days}', symbols: {...EN_WEEK.symbols, done: 'D', partial: 'P', missed: 'M', none: '-', pending: '?'}}))),
t('2026-11-22T09:10:00-05:00'), opts);
equal('week view: dosebar\'s words and symbols (Korean, ASCII)', v.items.at(-1), {kind: 'week', text: '최근 7일: D P M ⊘ ☾ - ?'});
const noWeekWords = {...weekly, words: EN_WORDS};
v = Logic.buildView(Logic.parseTimeline(JSON.stringify(noWeekWords)), t('2026-11-22T09:10:00-05:00'), opts);
check('week view: no strip without dosebar\'s words for it', v.items.every(i => i.kind !== 'week'), JSON.stringify(v.items));
v = Logic.buildView(parsed, t('2026-11-22T09:10:00-05:00'), opts);
check('week view: no strip in a file without a week', v.items.every(i => i.kind !== 'week'), JSON.stringify(v.items));
check('the extension keeps no strip words or symbols of its own',
    JSON.stringify(Logic.WORDS).indexOf('Week') < 0 && Object.values(EN_WEEK.symbols).every(c => !JSON.stringify(Logic.WORDS).includes(c)));

// --- carried slots (DESIGN §4): last night's 22:00 Yaz still open after midnight, listed first
// with its day until it is taken at 00:30 (then it leaves); a slot of two days before, open
// until 01:00; yesterday pending in the strip until both have left.
const yaz = (status, extra = {}) => dose('Yaz', '22:00', status, {day: '2026-11-21', ...extra});
const night = status => dose('Night', '23:30', status, {day: '2026-11-20', late_minutes: null});
const levo = dose('Levothyroxine', '06:00', 'upcoming'), mag = dose('Magnesium', '09:00', 'upcoming');
const carried1 = {
    ...timeline1,
    entries: [
        entry('00:00', 'late', [yaz('late', {late_minutes: 120}), {...night('late'), late_minutes: 1470}, levo, mag],
            '⏰ 0/2 · Yaz late 2h', {id: 'late_2h', severity: 'warning', text: 'Yaz (last night 22:00) is 2h late'}),
        entry('00:30', 'late', [yaz('taken_late', {taken_at: '2026-11-22T00:30:00-05:00', time_known: false}),
            {...night('late'), late_minutes: 1500}, levo, mag], '⏰ 0/2 · Night late'),
        entry('01:00', 'upcoming', [levo, mag], '💊 0/2 · Levothyroxine 06:00'),
    ],
};
const CARRIED_PAST = [['2026-11-16', 'done'], ['2026-11-17', 'done'], ['2026-11-18', 'done'], ['2026-11-19', 'done'],
    ['2026-11-20', 'partial'], ['2026-11-21', 'done']].map(([day, state]) => ({day, state}));
const carriedYesterday = ['pending', 'pending', 'done'];
const carried = toSchema3(carried1, {past: CARRIED_PAST, today: ['pending', 'pending', 'pending'], yesterday: carriedYesterday});
carried.words = {...EN_WORDS, week: EN_WEEK};
const parsedCarried = Logic.parseTimeline(JSON.stringify(carried));
check('carried: parses', parsedCarried.timeline !== undefined, JSON.stringify(parsedCarried.error));
equal('carried: each slot once, carried first', carried.slots.map(s => `${s.medication} ${s.day}`),
    ['Yaz 2026-11-21', 'Night 2026-11-20', 'Levothyroxine 2026-11-22', 'Magnesium 2026-11-22']);
equal('carried: null where an entry does not list a slot', carried.entries.map(e => e.doses),
    [['late', 'late', 'upcoming', 'upcoming'], ['taken_late', 'late', 'upcoming', 'upcoming'], [null, null, 'upcoming', 'upcoming']]);
equal('carried: week_yesterday only where yesterday differs from the last entry',
    carried.entries.map(e => e.week_yesterday ?? null), ['pending', 'pending', null]);
for (const [i, e] of carried.entries.entries()) {
    const want = wanted(carried1.entries[i]);
    want.week = [...CARRIED_PAST.slice(0, 5), {day: '2026-11-21', state: carriedYesterday[i]}, {day: '2026-11-22', state: 'pending'}];
    equal(`carried: entry ${e.at} expands to its snapshot`, canonical(Logic.expandEntry(carried, e)), canonical(want));
}
equal('carried: late_minutes are whole minutes, rounded down',
    Logic.expandEntry(carried, {...carried.entries[0], at: '2026-11-22T00:00:59-05:00'}).doses[0].late_minutes, 120);
v = Logic.buildView(parsedCarried, t('2026-11-22T00:10:00-05:00'), opts);
equal('carried view: the carried doses first, with their day', v.items.filter(i => i.kind === 'dose').map(i => i.text),
    ['yesterday 22:00  Yaz — late', '2026-11-20 23:30  Night — late', '06:00  Levothyroxine 50 µg — upcoming',
        '09:00  Magnesium — upcoming']);
equal('carried view: a Taken action for each', v.items.filter(i => i.action).map(i => i.action.argv.at(-1)), ['Yaz', 'Night']);
equal('carried view: yesterday pending in the strip', v.items.at(-1), {kind: 'week', text: 'Week: ✓ ✓ ✓ ✓ ◐ ○ ○'});
v = Logic.buildView(parsedCarried, t('2026-11-22T00:45:00-05:00'), opts);
equal('carried view: a take whose time is not known shows no time', v.items[0].text, 'yesterday 22:00  Yaz — taken late');
v = Logic.buildView(parsedCarried, t('2026-11-22T02:00:00-05:00'), opts);
equal('carried view: gone once resolved or closed', v.items.filter(i => i.kind === 'dose').map(i => i.text),
    ['06:00  Levothyroxine 50 µg — upcoming', '09:00  Magnesium — upcoming']);
equal('carried view: yesterday final in the strip', v.items.at(-1), {kind: 'week', text: 'Week: ✓ ✓ ✓ ✓ ◐ ✓ ○'});
v = Logic.buildView(Logic.parseTimeline(JSON.stringify({...carried, words: {...KO_WORDS, week: EN_WEEK}})),
    t('2026-11-22T00:10:00-05:00'), opts);
equal('carried view ko: dosebar\'s words for the day', v.items.slice(0, 2).map(i => i.text),
    ['어제 22:00  Yaz — 늦음', '2026-11-20 23:30  Night — 늦음']);
v = Logic.buildView(Logic.parseTimeline(JSON.stringify({...carried, words: {...carried.words, slot_day: undefined}})),
    t('2026-11-22T00:10:00-05:00'), opts);
equal('carried view: without dosebar\'s words, the date', v.items[0].text, '2026-11-21 22:00  Yaz — late');
equal('dayBefore: across a month and a year', [Logic.dayBefore('2026-03-01'), Logic.dayBefore('2027-01-01'), Logic.dayBefore('x')],
    ['2026-02-28', '2026-12-31', null]);

// --- a timeline written by the real dosebar, when given
const [file, now] = System.programArgs;
if (file) {
    const [, bytes] = GLib.file_get_contents(file);
    const real = Logic.parseTimeline(new TextDecoder().decode(bytes));
    check('real: timeline.json of dosebar parses', real.error === undefined, real.error);
    equal('real: schema 3', real.timeline?.schema, 3);
    if (real.timeline) {
        const rv = Logic.buildView(real, Date.parse(now), {today: real.timeline.day, command: 'dosebar', dir: ''});
        equal('real: state at the scenario instant', rv.state, 'late');
        check('real: label names the late medicine', rv.label.includes('Levothyroxine'), rv.label);
        equal('real: Taken actions for the late and the due dose',
            rv.items.filter(i => i.action).map(i => i.action.argv.at(-1)), ['Levothyroxine', 'Magnesium']);
        check('real: the taken dose shows its time', rv.items.some(i => i.text.includes('Omega-3') && i.text.includes('08:10')),
            JSON.stringify(rv.items.map(i => i.text)));
        check('real: a take-all item', rv.items.some(i => i.kind === 'takeAll'));
        const late = real.timeline.words?.status?.late;
        check('real: dosebar wrote the words the menu shows', typeof late === 'string' &&
            rv.items.some(i => i.text.includes('Levothyroxine') && i.text.endsWith(`— ${late}`)), JSON.stringify(real.timeline.words));
        check('real: the message', rv.message.length > 0, rv.message);
        // The scenario's medicines were added that morning: the 6 days before had no slots, and
        // today is not complete at 09:30 (lib.sh EXPECT_WEEK).
        const week = real.timeline.words?.week;
        const strip = rv.items.find(i => i.kind === 'week');
        check('real: the 7-day strip in dosebar\'s words and symbols, last', rv.items.at(-1) === strip && week !== undefined &&
            strip.text === week.line.replace('{days}', [...Array(6).fill(week.symbols.none), week.symbols.pending].join(' ')),
        JSON.stringify([strip, week]));
        equal('real: 6 past days at the top level', real.timeline.week?.length, 6);
        const ms = Logic.msUntilNextChange(real.timeline, Date.parse(now));
        check('real: next change within the hour', ms !== null && ms > 0 && ms <= 3600 * 1000, String(ms));
    }
}

print(`1..${count}`);
if (failures > 0) {
    print(`${failures} of ${count} failed`);
    System.exit(1);
}
