#ifndef DOSEBAR_THREAD_SHIM_H
#define DOSEBAR_THREAD_SHIM_H

#include <stdint.h>

/* Runs body(context, the CPU it started on) on a new detached thread that starts on another CPU
   than `avoid` when this thread may use more than one (-1: anywhere), and may use them all once
   it runs; 0, or an errno (nothing started, context untouched). threads.c says why. */
int shim_thread_start(void (*body)(void *, int), void *context, int avoid);

/* The CPU this thread runs on, and how many CPUs it may use (-1 when unknown). */
int shim_current_cpu(void);
int shim_allowed_cpu_count(void);

/* Where the executable's .bss begins (0: none found). */
uintptr_t shim_bss_start(void);

/* Every page of the executable's .bss made writable now (MADV_POPULATE_WRITE): 0, or -1 (no .bss
   found, or a kernel before 5.14: nothing done). threads.c says why. */
int shim_prefault_bss(void);

#endif
