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
