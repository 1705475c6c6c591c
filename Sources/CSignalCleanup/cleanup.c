#include "CSignalCleanup.h"
#include <signal.h>
#include <string.h>
#include <unistd.h>

enum { SLOTS = 32, PATH_BYTES = 4096 };

/* Written before `used` is set, read by the handler only where `used` is set. */
static char paths[SLOTS][PATH_BYTES];
static volatile sig_atomic_t used[SLOTS];
static volatile sig_atomic_t installed;

static void remove_and_die(int sig) {
    for (int i = 0; i < SLOTS; i++) {
        if (used[i]) unlink(paths[i]);
    }
    signal(sig, SIG_DFL);
    raise(sig);
}

static void install(void) {
    static const int signals[] = {SIGINT, SIGTERM, SIGHUP};
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = remove_and_die;
    sigemptyset(&action.sa_mask);
    for (unsigned i = 0; i < sizeof signals / sizeof signals[0]; i++) {
        struct sigaction old;
        if (sigaction(signals[i], NULL, &old) == 0 && old.sa_handler == SIG_DFL) sigaction(signals[i], &action, NULL);
    }
    installed = 1;
}

int dosebar_cleanup_register(const char *path) {
    size_t length = strlen(path);
    if (length >= PATH_BYTES) return -1;
    for (int i = 0; i < SLOTS; i++) {
        if (used[i]) continue;
        memcpy(paths[i], path, length + 1);
        used[i] = 1;
        if (!installed) install();
        return i;
    }
    return -1;
}

void dosebar_cleanup_unregister(int slot) {
    if (slot >= 0 && slot < SLOTS) used[slot] = 0;
}
