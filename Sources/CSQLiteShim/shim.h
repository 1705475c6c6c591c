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
/// every allocation and free of SQLite takes a process-wide mutex: 7 % of the thread that applies
/// another device's 20 years (perf). dosebar never reads the count (`sqlite3_memory_used`).
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

#include <malloc.h>

/// Gives the heap's free memory back to the system (glibc's `malloc_trim`, not exposed by Swift's
/// Glibc module): after SQLite's raised cache and a long file's batches are freed, malloc would
/// otherwise keep them, and a daemon that applied another device's 20 years stayed at 133 MB.
static inline void dosebar_release_free_heap(void) {
    malloc_trim(0);
}
