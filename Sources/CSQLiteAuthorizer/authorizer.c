/* GRDB registers one authorizer on every connection (sqlite3_set_authorizer, in Database.setUp),
   and SQLite calls it for every column each statement it compiles reads (SQLITE_READ): GRDB turns
   each into Swift strings and a DatabaseRegion, the region ValueObservation watches. dosebar
   watches nothing: that cost 15 K instructions a column, 1.0 M of a 50-medicine take on the thread
   that opens the database ahead of the parse, the one the take then waits for (callgrind,
   Benchmarks/README.md, "A take's threads"). So this file defines sqlite3_set_authorizer, which
   the link binds GRDB's call to: it registers GRDB's function behind a filter that answers
   SQLITE_READ itself (SQLITE_OK, as GRDB does) and hands every other action to GRDB, whose
   transaction, schema-change and DROP bookkeeping stays as it was. The real function is the next
   one the loader finds (libsqlite3's). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <sqlite3.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <unistd.h>
#include "CSQLiteAuthorizer.h"

typedef int (*authorizer_fn)(void *, int, const char *, const char *, const char *, const char *);
typedef int (*set_authorizer_fn)(sqlite3 *, authorizer_fn, void *);

/* The function GRDB registers: one for every connection (each passes its own argument). */
static _Atomic(authorizer_fn) behind;

static int filtered(void *arg, int action, const char *a, const char *b, const char *c, const char *d) {
    if (action == SQLITE_READ) return SQLITE_OK;
    return atomic_load_explicit(&behind, memory_order_acquire)(arg, action, a, b, c, d);
}

int sqlite3_set_authorizer(sqlite3 *db, authorizer_fn authorize, void *arg) {
    static _Atomic(set_authorizer_fn) real;
    set_authorizer_fn set = atomic_load_explicit(&real, memory_order_acquire);
    if (set == NULL) {
        set = (set_authorizer_fn)dlsym(RTLD_NEXT, "sqlite3_set_authorizer");
        if (set == NULL) {
            /* GRDB ignores what this returns: it would go on with no authorizer at all, blind to
               its transactions and schema changes. Stop instead (exit 70, internal error). */
            fputs("dosebar: internal error: libsqlite3's sqlite3_set_authorizer not found\n", stderr);
            _exit(70);
        }
        atomic_store_explicit(&real, set, memory_order_release);
    }
    if (authorize != NULL && authorize != filtered) {
        /* Filtered only while every caller registers the same function; another is passed as is. */
        authorizer_fn expected = NULL;
        if (atomic_compare_exchange_strong(&behind, &expected, authorize) || expected == authorize)
            authorize = filtered;
    }
    return set(db, authorize, arg);
}

int dosebar_authorizer_filtering(void) { return atomic_load(&behind) != NULL; }
