/* Threads started off their caller's CPU (Parallel in DoseRuntime). A C file of its own, not a system-library
   header: sched_getcpu and pthread_attr_setaffinity_np need _GNU_SOURCE, which must not reach the
   modules Swift builds from glibc's headers (it changes fd_set's fields, and clang refuses the two
   definitions). */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <unistd.h>
#include "CThreadShim.h"

/* A thread started by shim_thread_start: what it runs, and the CPUs it may use once it runs. */
struct shim_thread_start {
    void (*body)(void *, int);
    void *context;
    cpu_set_t allowed;
    int widen;
};

/* Runs the body with the CPU the thread started on (read before it may use the others). */
static void *shim_thread_main(void *start) {
    struct shim_thread_start s = *(struct shim_thread_start *)start;
    free(start);
    int first = sched_getcpu();
    if (s.widen) sched_setaffinity(0, sizeof s.allowed, &s.allowed);
    s.body(s.context, first);
    return NULL;
}

/* Runs body(context, the CPU it started on) on a new detached thread; 0, or an errno (nothing
   started, context untouched). When this thread may run on more than one CPU, the new one starts
   on another than `avoid` (the caller's: shim_current_cpu(); -1: anywhere) and may use them all
   again once it runs; a thread that cannot be started so (the CPUs changed meanwhile, affinity
   refused) is started anywhere. Left to the kernel (6.18, 2 vCPUs), a command's first new thread
   began on its parent's CPU in 54 of 60 starts, the next two in 38 and 18 (perf,
   sched_wakeup_new): the two threads took turns on one core while the other idled.
   Benchmarks/README.md, "A take's threads". */
int shim_thread_start(void (*body)(void *, int), void *context, int avoid) {
    struct shim_thread_start *start = malloc(sizeof *start);
    if (start == NULL) return ENOMEM;
    start->body = body;
    start->context = context;
    start->widen = 0;
    pthread_attr_t attr;
    int rc = pthread_attr_init(&attr);
    if (rc != 0) { free(start); return rc; }
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    if (avoid >= 0 && avoid < CPU_SETSIZE
        && sched_getaffinity(0, sizeof start->allowed, &start->allowed) == 0
        && CPU_ISSET(avoid, &start->allowed) && CPU_COUNT(&start->allowed) > 1) {
        cpu_set_t elsewhere = start->allowed;
        CPU_CLR(avoid, &elsewhere);
        if (pthread_attr_setaffinity_np(&attr, sizeof elsewhere, &elsewhere) == 0) start->widen = 1;
    }
    pthread_t thread;
    rc = pthread_create(&thread, &attr, shim_thread_main, start);
    pthread_attr_destroy(&attr);
    if (rc != 0 && start->widen) {
        pthread_attr_t anywhere;
        start->widen = 0;
        rc = pthread_attr_init(&anywhere);
        if (rc == 0) {
            pthread_attr_setdetachstate(&anywhere, PTHREAD_CREATE_DETACHED);
            rc = pthread_create(&thread, &anywhere, shim_thread_main, start);
            pthread_attr_destroy(&anywhere);
        }
    }
    if (rc != 0) free(start);
    return rc;
}

/* The CPU this thread runs on, and how many CPUs it may use (-1 when unknown). */
int shim_current_cpu(void) { return sched_getcpu(); }

int shim_allowed_cpu_count(void) {
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) != 0) return -1;
    return CPU_COUNT(&set);
}
