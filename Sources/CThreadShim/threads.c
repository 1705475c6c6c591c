/* Threads started off their caller's CPU, and the program's zero-initialised data made writable
   before a second thread runs (Parallel in DoseRuntime). A C file of its own, not a system-library
   header: sched_getcpu and pthread_attr_setaffinity_np need _GNU_SOURCE, which must not reach the
   modules Swift builds from glibc's headers (it changes fd_set's fields, and clang refuses the two
   definitions). */
#define _GNU_SOURCE
#include <errno.h>
#include <link.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <sys/mman.h>
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

/* Where the executable's .bss begins (0: none found). */
uintptr_t shim_bss_start(void) {
    uintptr_t range[2] = {0, 0};
    dl_iterate_phdr(shim_bss_of_executable, range);
    return range[0];
}

/* Gives every page of the executable's .bss its own zeroed page now, in one call
   (MADV_POPULATE_WRITE, Linux 5.14), instead of at its first write. A page read before it is
   written is first mapped to the shared zero page; the write then replaces that mapping, and once
   a second thread runs on another CPU, replacing a mapping makes the kernel interrupt that CPU to
   flush it (an IPI, a VM exit each way here). 0, or -1: no .bss found, or a kernel before 5.14
   (nothing done). */
int shim_prefault_bss(void) {
    uintptr_t range[2] = {0, 0};
    dl_iterate_phdr(shim_bss_of_executable, range);
    long page = sysconf(_SC_PAGESIZE);
    if (range[1] == 0 || page <= 0) return -1;
    uintptr_t start = range[0] & ~(uintptr_t)(page - 1);
    uintptr_t end = (range[1] + (uintptr_t)page - 1) & ~(uintptr_t)(page - 1);
    return madvise((void *)start, end - start, 23 /* MADV_POPULATE_WRITE */);
}
