#ifndef CCHIRP_TEST_RUN_H
#define CCHIRP_TEST_RUN_H

#include <sys/types.h>

/// Starts `path` with `argv` and `envp` (NULL-terminated) as a child of this process, its
/// standard input from `input` and standard output and error to `output`, in a process group
/// of its own, inheriting no other descriptor. The child is killed (SIGKILL) when this process
/// ends, however it ends: it is started by one thread that lives as long as the process, with
/// `PR_SET_PDEATHSIG` (which fires when the starting *thread* ends, so never from a pool thread
/// that may retire while the child runs). Returns 0 and sets `*pid`, or an errno value.
int chirp_test_spawn(const char *path, char *const argv[], char *const envp[], int input, int output, pid_t *pid);

/// The directory this test process keeps its temporary files in (also its `TMPDIR`): made when
/// the process starts, removed when it exits. Directories of earlier test processes that are
/// no longer running are removed at start, so a crashed run leaves nothing for long.
const char *chirp_test_run_directory(void);

#endif
