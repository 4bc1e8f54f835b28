/* What a benchmark or a run report says about the machine and the process:
 * peak resident memory, the CPU's model and its SIMD features. Linux's
 * /proc is read where it exists; elsewhere the answers degrade (getrusage,
 * empty strings), never fail. */
#ifndef TC_SYSINFO_H
#define TC_SYSINFO_H

#include <stddef.h>
#include <stdint.h>

/* Peak resident memory of this process's own address space, in KiB: VmHWM
 * where Linux provides it (getrusage would include what a parent had mapped
 * before exec), else getrusage. */
uint64_t tc_peak_rss_kib(void);

/* Resident memory now, in KiB (/proc/self/statm), or 0 when unknown. */
uint64_t tc_rss_kib(void);

/* Sets the peak (VmHWM) back to the current resident size, so the next
 * tc_peak_rss_kib measures what follows (Linux's clear_refs, value 5).
 * Returns 0 when the kernel does not allow it. */
int tc_peak_rss_reset(void);

/* The CPU's model name ("AMD EPYC 7B13"), or "" when unknown, into BUF. */
void tc_cpu_model(char *buf, size_t cap);

/* The CPU's features that decide which SIMD kernels can run ("sse4_2
 * pclmulqdq avx2 bmi1 bmi2 avx512f ..."), space-separated in a fixed order,
 * into BUF; "" when unknown. */
void tc_cpu_flags(char *buf, size_t cap);

#endif
