/* What SIGINT, SIGTERM and SIGHUP do to a run, and the signals a write can
 * raise that must not kill it.
 *
 * From tc_interrupt_begin to commit or abort the run's output set is
 * watched: a terminating signal removes its staging folder and lock
 * (nothing partial is left, OUTDIR keeps its previous outputs), says so on
 * stderr, and the process then dies of that signal, so a shell sees
 * 128 + N. A signal during begin, commit or abort waits until the call is
 * done, so the set is never caught half-swapped; one after a commit says
 * OUTDIR already holds the new outputs. SIGXFSZ (ulimit -f) and SIGPIPE
 * (stderr to a closed pipe) are ignored: the write fails with EFBIG or
 * EPIPE and is reported like any other write error.
 *
 * A run that keeps partial state (--state) asks for a gentler first
 * signal with tc_interrupt_defer: it only sets a flag the run watches, so
 * the traces in progress finish and their sites are saved; the caller then
 * ends with tc_interrupt_die. A second signal acts at once, as above. */
#ifndef TC_INTERRUPT_H
#define TC_INTERRUPT_H

#include <stdatomic.h>
#include <stddef.h>

#include "report/tc_outset.h"

/* Installs the handlers; call once, before any thread starts. */
void tc_interrupt_install(void);

/* tc_outset_begin, commit and abort, with the set watched in between.
 * OUTDIR is named in the handler's message and must outlive the set. */
tc_err tc_interrupt_begin(const char *outdir, tc_outset **set, tc_why *why);
tc_err tc_interrupt_commit(tc_outset *set, tc_why *why);
void tc_interrupt_abort(tc_outset *set);

/* From now on the first SIGINT, SIGTERM or SIGHUP stores its number in
 * *FLAG (and says so on stderr, naming STATE_DIR) instead of ending the
 * process. FLAG and STATE_DIR must outlive the process. */
void tc_interrupt_defer(atomic_int *flag, const char *state_dir);

/* Ends the process by signal SIG (the one tc_interrupt_defer stored),
 * removing the watched set first as the handler would. */
_Noreturn void tc_interrupt_die(int sig);

#endif
