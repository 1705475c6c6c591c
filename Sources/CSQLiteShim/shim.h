// What dosebar needs from SQLite's C API that Swift cannot call itself (variadic functions).
#include <sqlite3.h>

/// Turns off the checkpoint SQLite runs when the last connection to a WAL database closes.
/// A command (`take`, a bar click) then leaves the log and its index in place, as it does
/// whenever the daemon holds the database open, instead of syncing the log, copying it into
/// the main file, syncing that and deleting both files: four disk syncs on every run. The log
/// is still checkpointed every 1,000 pages by the commit that fills it (SQLite's
/// wal_autocheckpoint), and `purge` empties it itself.
static inline int dosebar_sqlite3_no_checkpoint_on_close(sqlite3 *db) {
    return sqlite3_db_config(db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, (int *)0);
}
