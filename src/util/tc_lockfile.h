/* One run at a time in a folder: an flock on a lock file, taken without
 * waiting, that names its holder's pid for the message of the run it
 * turns away. OUTDIR's lock (report/tc_outset.c) and a state folder's
 * (pipeline/tc_state.c) are both this. */
#ifndef TC_LOCKFILE_H
#define TC_LOCKFILE_H

/* Takes an exclusive flock on the file NAME in the folder DIRFD (made if
 * missing, never followed if a symlink) and writes our pid in it. Returns
 * its descriptor, which holds the lock until closed, or -1 with errno:
 * EWOULDBLOCK when another process holds it, *HOLDER then the pid the file
 * names (0 when unknown). A lock file that its holder unlinks between our
 * open and our flock is opened again, so the lock taken is always on the
 * file NAME leads to. */
int tc_lockfile_take(int dirfd, const char *name, long *holder);

#endif
