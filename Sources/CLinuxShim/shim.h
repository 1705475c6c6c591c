/* First: sched.h and pthread.h declare CPU affinity (sched_getcpu, pthread_attr_setaffinity_np) only
   for GNU sources; the module builds this header on its own, so the definition reaches them. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <link.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>
#include <sys/timerfd.h>
#include <sys/signalfd.h>
#include <sys/epoll.h>
#include <sys/inotify.h>
#include <signal.h>
#include <stdint.h>

/* SIGRTMIN is a macro that calls into glibc; Swift cannot import it. */
static inline int shim_sigrtmin(void) { return SIGRTMIN; }

/* struct epoll_event is packed on x86_64, which Swift does not lay out reliably:
   these two helpers keep it on the C side. */
static inline int shim_epoll_add(int epfd, int fd, uint32_t events) {
    struct epoll_event ev;
    ev.events = events;
    ev.data.u64 = 0;
    ev.data.fd = fd;
    return epoll_ctl(epfd, EPOLL_CTL_ADD, fd, &ev);
}

/* Waits like epoll_wait and copies each ready descriptor and its event bits out. */
static inline int shim_epoll_wait(int epfd, int *fds, uint32_t *events, int max, int timeout_ms) {
    struct epoll_event evs[16];
    if (max > 16) max = 16;
    int n = epoll_wait(epfd, evs, max, timeout_ms);
    for (int i = 0; i < n; i++) { fds[i] = evs[i].data.fd; events[i] = evs[i].events; }
    return n;
}

/* The git commit dosebar was built from: `swift build -Xcc -DDOSEBAR_COMMIT='"abc1234"'`
   (scripts/install does); "unknown" otherwise. Read through a function so the value is the one
   the build defined, not one Swift imported once. */
#ifndef DOSEBAR_COMMIT
#define DOSEBAR_COMMIT "unknown"
#endif
static inline const char *shim_build_commit(void) { return DOSEBAR_COMMIT; }

/* A thread started by shim_thread_start: what it runs, and the CPUs it may use once it runs. */
struct shim_thread_start {
    void (*body)(void *);
    void *context;
    cpu_set_t allowed;
    int widen;
};

static void *shim_thread_main(void *start) {
    struct shim_thread_start s = *(struct shim_thread_start *)start;
    free(start);
    if (s.widen) sched_setaffinity(0, sizeof s.allowed, &s.allowed);
    s.body(s.context);
    return NULL;
}

/* Runs body(context) on a new detached thread; 0, or an errno (nothing started, context untouched).
   When this thread may run on more than one CPU, the new one starts on another than `avoid`
   (the caller's: shim_current_cpu(); -1: anywhere) and may use them all again once it runs.
   Left to the kernel (6.18, 2 vCPUs), a command's first new thread began on its parent's CPU in
   54 of 60 starts, the next two in 38 and 18 (perf, sched_wakeup_new): the two threads took turns
   on one core while the other idled. Benchmarks/README.md, "A take's threads". */
static inline int shim_thread_start(void (*body)(void *), void *context, int avoid) {
    struct shim_thread_start *start = malloc(sizeof *start);
    if (start == NULL) return 12; /* ENOMEM */
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
    if (rc != 0) free(start);
    return rc;
}

/* The CPU this thread runs on, and how many CPUs it may use (-1 when unknown). */
static inline int shim_current_cpu(void) { return sched_getcpu(); }

static inline int shim_allowed_cpu_count(void) {
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) != 0) return -1;
    return CPU_COUNT(&set);
}

/* The executable's zero-initialised data (.bss: the tail of its writable segment that the file
   does not hold), as [0] start and [1] end; the segment with the longest such tail. */
static int shim_bss_of_executable(struct dl_phdr_info *info, size_t size, void *out) {
    (void)size;
    uintptr_t *range = out;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *p = &info->dlpi_phdr[i];
        if (p->p_type != PT_LOAD || !(p->p_flags & PF_W) || p->p_memsz <= p->p_filesz) continue;
        uintptr_t start = info->dlpi_addr + p->p_vaddr + p->p_filesz;
        uintptr_t end = info->dlpi_addr + p->p_vaddr + p->p_memsz;
        if (end - start > range[1] - range[0]) { range[0] = start; range[1] = end; }
    }
    return 1; /* the first object is the executable */
}

/* Gives every page of the executable's .bss its own zeroed page now, in one call
   (MADV_POPULATE_WRITE, Linux 5.14), instead of at its first write. A page read before it is
   written is first mapped to the shared zero page; the write then replaces that mapping, and once
   a second thread runs on another CPU, replacing a mapping makes the kernel interrupt that CPU to
   flush it (an IPI, a VM exit each way here). 0, or -1 (older kernels: nothing done). */
static inline uintptr_t shim_bss_start(void) {
    uintptr_t range[2] = {0, 0};
    dl_iterate_phdr(shim_bss_of_executable, range);
    return range[0];
}

static inline int shim_prefault_bss(void) {
    uintptr_t range[2] = {0, 0};
    dl_iterate_phdr(shim_bss_of_executable, range);
    long page = sysconf(_SC_PAGESIZE);
    if (range[1] == 0 || page <= 0) return -1;
    uintptr_t start = range[0] & ~(uintptr_t)(page - 1);
    uintptr_t end = (range[1] + (uintptr_t)page - 1) & ~(uintptr_t)(page - 1);
    return madvise((void *)start, end - start, 23 /* MADV_POPULATE_WRITE */);
}
