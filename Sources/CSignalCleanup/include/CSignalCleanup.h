#ifndef DOSEBAR_SIGNAL_CLEANUP_H
#define DOSEBAR_SIGNAL_CLEANUP_H

/* Private copies of the user's data (a backup being written, a restore's staged copy) that must
   not outlive the process when SIGINT, SIGTERM or SIGHUP ends it: the handler unlinks every path
   registered, then dies of the same signal (its default action). A signal the process was told
   to ignore stays ignored. */

/* Registers `path`; the slot to unregister, or -1 when the table is full or the path too long. */
int dosebar_cleanup_register(const char *path);

/* The path of `slot` is no longer removed on a signal (it was renamed into place or removed). */
void dosebar_cleanup_unregister(int slot);

#endif
