// What dosebar needs from SQLite's C API that Swift cannot call itself (variadic functions,
// callbacks).
#include <sqlite3.h>
#include <stdint.h>

/// Turns off the checkpoint SQLite runs when the last connection to a WAL database closes.
/// A command (`take`, a bar click) then leaves the log and its index in place, as it does
/// whenever the daemon holds the database open, instead of syncing the log, copying it into
/// the main file, syncing that and deleting both files: four disk syncs on every run. The log
/// is emptied instead by the commit that takes it past a bound
/// (dosebar_sqlite3_truncate_log_after), and `purge` empties it itself.
static inline int dosebar_sqlite3_no_checkpoint_on_close(sqlite3 *db) {
    return sqlite3_db_config(db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, (int *)0);
}

/// Turns off SQLite's count of the memory it holds (SQLITE_CONFIG_MEMSTATUS), before the first
/// connection opens (SQLite refuses it after: SQLITE_MISUSE, nothing changed). With the count on,
/// every allocation and free of SQLite takes a process-wide mutex, on the thread that applies
/// another device's history. dosebar never reads the count (`sqlite3_memory_used`).
static inline int dosebar_sqlite3_no_memory_count(void) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}

/* The hook's argument: the bound in pages (low 32 bits) and the connection's busy timeout in
   milliseconds (high bits), put back after the checkpoint. */
static int dosebar_truncate_log_hook(void *arg, sqlite3 *db, const char *name, int count) {
    intptr_t packed = (intptr_t)arg;
    int frames = (int)(packed & 0x7fffffff);
    int busy_ms = (int)(packed >> 32);
    if (count >= frames) {
        /* Without waiting: a reader still in the log (the daemon refreshing) would otherwise hold
           the command that just committed for the whole busy timeout (10 s). Busy, the checkpoint
           copies what it can and the next commit past the bound tries again. */
        sqlite3_busy_timeout(db, 0);
        (void)sqlite3_wal_checkpoint_v2(db, name, SQLITE_CHECKPOINT_TRUNCATE, (int *)0, (int *)0);
        sqlite3_busy_timeout(db, busy_ms);
    }
    return SQLITE_OK;
}

/// After a commit leaves `frames` pages or more in the log, copies the log into the main file
/// and truncates it to nothing (replacing SQLite's wal_autocheckpoint, which would only copy).
///
/// Without it the log of a database opened by one short process after another grows without
/// end: the first connection to open the database rebuilds the log's index by reading every
/// page of the log (its index file is reset when no other connection holds it), and with it
/// forgets which pages the last checkpoint copied, so the log is never restarted; every
/// command then read the whole log (3,342 page reads, 13.7 MB, after 250 takes and undos)
/// and every commit copied it all again.
/// `busy_ms` is the connection's busy timeout, which the checkpoint lifts while it runs and puts back.
static inline void dosebar_sqlite3_truncate_log_after(sqlite3 *db, int frames, int busy_ms) {
    intptr_t packed = ((intptr_t)busy_ms << 32) | (intptr_t)(uint32_t)frames;
    (void)sqlite3_wal_hook(db, dosebar_truncate_log_hook, (void *)packed);
}

#include <semaphore.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <errno.h>

/// What a long write's commits tell the thread that copies the log aside (DoseStore's
/// `LogCopier`): `wake` is posted once per wait when a commit leaves `frames` pages or more in
/// the log; `stop` asks for a last copy and the end.
typedef struct dosebar_log_signal {
    sem_t wake;
    atomic_int pending;
    atomic_int stop;
    int frames;
    int truncate_frames;
    int busy_ms;
} dosebar_log_signal;

static int dosebar_signal_log_hook(void *arg, sqlite3 *db, const char *name, int count) {
    dosebar_log_signal *signal = (dosebar_log_signal *)arg;
    if (count >= signal->truncate_frames) {
        /* The log starts over only when a transaction begins with all of it copied, which the
           writer's next batch seldom waits for: past this bound the commit copies the little the
           thread has not (or leaves it to the next commit when that thread is copying) and
           truncates the log, as dosebar_truncate_log_hook does. */
        sqlite3_busy_timeout(db, 0);
        (void)sqlite3_wal_checkpoint_v2(db, name, SQLITE_CHECKPOINT_TRUNCATE, (int *)0, (int *)0);
        sqlite3_busy_timeout(db, signal->busy_ms);
    } else if (count >= signal->frames && !atomic_exchange(&signal->pending, 1)) {
        sem_post(&signal->wake);
    }
    return SQLITE_OK;
}

/// A signal for `frames` pages, the log truncated by the commit past `truncate_frames` (the
/// connection's busy timeout `busy_ms` put back after); NULL when there is no memory (free it
/// with dosebar_log_signal_free).
static inline dosebar_log_signal *dosebar_log_signal_new(int frames, int truncate_frames, int busy_ms) {
    dosebar_log_signal *signal = (dosebar_log_signal *)calloc(1, sizeof(dosebar_log_signal));
    if (!signal) return (dosebar_log_signal *)0;
    if (sem_init(&signal->wake, 0, 0) != 0) { free(signal); return (dosebar_log_signal *)0; }
    atomic_init(&signal->pending, 0);
    atomic_init(&signal->stop, 0);
    signal->frames = frames;
    signal->truncate_frames = truncate_frames;
    signal->busy_ms = busy_ms;
    return signal;
}

/// Replaces the connection's log hook: its commits no longer copy the log themselves (but past
/// the signal's truncating bound), they wake the thread waiting in dosebar_log_signal_wait.
static inline void dosebar_sqlite3_signal_log_after(sqlite3 *db, dosebar_log_signal *signal) {
    (void)sqlite3_wal_hook(db, dosebar_signal_log_hook, (void *)signal);
}

/// Waits to be woken (by a commit past the bound, or by dosebar_log_signal_stop); 1 when asked to stop.
static inline int dosebar_log_signal_wait(dosebar_log_signal *signal) {
    while (sem_wait(&signal->wake) != 0 && errno == EINTR) {}
    atomic_store(&signal->pending, 0);
    return atomic_load(&signal->stop);
}

static inline void dosebar_log_signal_stop(dosebar_log_signal *signal) {
    atomic_store(&signal->stop, 1);
    sem_post(&signal->wake);
}

static inline void dosebar_log_signal_free(dosebar_log_signal *signal) {
    sem_destroy(&signal->wake);
    free(signal);
}

/// A second connection to `path` for copying its log (no checkpoint when it closes: the writer's
/// connection stays open). NULL when it cannot be opened.
static inline sqlite3 *dosebar_sqlite3_open_copier(const char *path) {
    sqlite3 *db = (sqlite3 *)0;
    if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, (const char *)0) != SQLITE_OK) {
        sqlite3_close_v2(db);
        return (sqlite3 *)0;
    }
    (void)dosebar_sqlite3_no_checkpoint_on_close(db);
    /* A connection knows the file is in WAL mode once it has read it: until then a checkpoint
       does nothing (its counts are -1). */
    if (sqlite3_exec(db, "SELECT 1 FROM sqlite_schema LIMIT 1", 0, 0, (char **)0) != SQLITE_OK) {
        sqlite3_close_v2(db);
        return (sqlite3 *)0;
    }
    return db;
}

/// Copies what the log holds into the main file, waiting for no one (SQLITE_CHECKPOINT_PASSIVE):
/// the writer goes on appending meanwhile.
static inline int dosebar_sqlite3_copy_log(sqlite3 *db) {
    return sqlite3_wal_checkpoint_v2(db, "main", SQLITE_CHECKPOINT_PASSIVE, (int *)0, (int *)0);
}

#include <malloc.h>

/// Gives the heap's free memory back to the system (glibc's `malloc_trim`, not exposed by Swift's
/// Glibc module): after SQLite's raised cache and a long file's batches are freed, malloc would
/// otherwise keep them, and a daemon that applied another device's 20 years stayed at 133 MB.
static inline void dosebar_release_free_heap(void) {
    malloc_trim(0);
}
