// What a test process needs from the system before any test runs, in C because it must happen
// before Swift code runs (a constructor) or between fork and exec (async-signal-safe calls only).
//
// - A directory of the run's own for temporary files, set as TMPDIR so that every test, every
//   library and every child process puts its files there; removed at exit.
// - One spawning thread whose children die with the process (PR_SET_PDEATHSIG).

#define _GNU_SOURCE
#include "CChirpTestRun.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define RUN_PREFIX "chirp-test-run-"

static char run_directory[4096];
static pid_t run_owner;

const char *chirp_test_run_directory(void) { return run_directory; }

static int remove_entry(const char *path, const struct stat *info, int type, struct FTW *walk) {
    (void)info; (void)type; (void)walk;
    remove(path);
    return 0;
}

static void remove_tree(const char *path) { nftw(path, remove_entry, 32, FTW_DEPTH | FTW_PHYS); }

static void remove_run_directory(void) {
    // A child forked by a test (and not yet exec'd) that exits must not remove its parent's files.
    if (getpid() == run_owner && run_directory[0] != 0) remove_tree(run_directory);
}

/// Removes the run directories of test processes that no longer exist (a crashed run's).
static void remove_stale_run_directories(const char *base) {
    DIR *directory = opendir(base);
    if (directory == NULL) return;
    struct dirent *entry;
    char path[4096];
    while ((entry = readdir(directory)) != NULL) {
        if (strncmp(entry->d_name, RUN_PREFIX, strlen(RUN_PREFIX)) != 0) continue;
        char *end = NULL;
        long owner = strtol(entry->d_name + strlen(RUN_PREFIX), &end, 10);
        if (end == NULL || *end != 0 || owner <= 0) continue;
        if (kill((pid_t)owner, 0) == 0 || errno != ESRCH) continue;  // running (or not ours to judge)
        snprintf(path, sizeof path, "%s/%s", base, entry->d_name);
        remove_tree(path);
    }
    closedir(directory);
}

__attribute__((constructor)) static void chirp_test_run_begin(void) {
    const char *base = getenv("TMPDIR");
    if (base == NULL || base[0] == 0) base = "/tmp";
    remove_stale_run_directories(base);
    run_owner = getpid();
    snprintf(run_directory, sizeof run_directory, "%s/" RUN_PREFIX "%d", base, (int)run_owner);
    if (mkdir(run_directory, 0700) != 0 && errno != EEXIST) {
        run_directory[0] = 0;
        return;
    }
    setenv("TMPDIR", run_directory, 1);
    atexit(remove_run_directory);
}

// MARK: spawning

struct spawn_request {
    const char *path;
    char *const *argv;
    char *const *envp;
    int input, output;
    pid_t pid;
    int error;
    int done;
};

static pthread_mutex_t spawn_lock = PTHREAD_MUTEX_INITIALIZER;  // one caller at a time
static pthread_mutex_t state_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t state_changed = PTHREAD_COND_INITIALIZER;
static struct spawn_request *pending;
static pthread_once_t spawner_once = PTHREAD_ONCE_INIT;
static int spawner_error;

/// Closes every descriptor from `first` up (in a forked child: async-signal-safe).
static void close_from(int first) {
#ifdef SYS_close_range
    if (syscall(SYS_close_range, (unsigned)first, ~0U, 0U) == 0) return;
#endif
    long last = sysconf(_SC_OPEN_MAX);
    if (last < 0 || last > 65536) last = 65536;
    for (int fd = first; fd < last; fd++) close(fd);
}

static void fork_and_exec(struct spawn_request *request) {
    int report[2];
    if (pipe2(report, O_CLOEXEC) != 0) { request->error = errno; return; }
    pid_t parent = getpid();
    pid_t child = fork();
    if (child < 0) {
        request->error = errno;
        close(report[0]);
        close(report[1]);
        return;
    }
    if (child == 0) {
        // Async-signal-safe calls only from here to exec.
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() != parent) _exit(127);  // the parent ended before the line above
        setpgid(0, 0);
        sigset_t none;
        sigemptyset(&none);
        sigprocmask(SIG_SETMASK, &none, NULL);
        int input = request->input, output = request->output, status_pipe = report[1];
        if (dup2(input, 0) < 0 || dup2(output, 1) < 0 || dup2(output, 2) < 0) goto failed;
        if (status_pipe <= 2) goto failed;
        // Keep the report pipe (close-on-exec) across the closing of everything else.
        if (dup2(status_pipe, 3) < 0) goto failed;
        fcntl(3, F_SETFD, FD_CLOEXEC);
        status_pipe = 3;
        close_from(4);
        execve(request->path, request->argv, request->envp);
    failed:;
        int error = errno;
        (void)!write(status_pipe, &error, sizeof error);
        _exit(127);
    }
    close(report[1]);
    int error = 0;
    ssize_t count;
    do { count = read(report[0], &error, sizeof error); } while (count < 0 && errno == EINTR);
    close(report[0]);
    if (count == (ssize_t)sizeof error) {
        int status;
        waitpid(child, &status, 0);
        request->error = error;
        return;
    }
    request->pid = child;
    request->error = 0;
}

static void *spawner_main(void *unused) {
    (void)unused;
    sigset_t all;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, NULL);  // signals are for the other threads
    pthread_mutex_lock(&state_lock);
    for (;;) {
        while (pending == NULL || pending->done) pthread_cond_wait(&state_changed, &state_lock);
        fork_and_exec(pending);
        pending->done = 1;
        pthread_cond_broadcast(&state_changed);
    }
    return NULL;
}

static void start_spawner(void) {
    pthread_t thread;
    pthread_attr_t attributes;
    pthread_attr_init(&attributes);
    pthread_attr_setdetachstate(&attributes, PTHREAD_CREATE_DETACHED);
    spawner_error = pthread_create(&thread, &attributes, spawner_main, NULL);
    pthread_attr_destroy(&attributes);
}

int chirp_test_spawn(const char *path, char *const argv[], char *const envp[], int input, int output, pid_t *pid) {
    pthread_once(&spawner_once, start_spawner);
    if (spawner_error != 0) return spawner_error;
    struct spawn_request request = { path, argv, envp, input, output, 0, 0, 0 };
    pthread_mutex_lock(&spawn_lock);
    pthread_mutex_lock(&state_lock);
    pending = &request;
    pthread_cond_broadcast(&state_changed);
    while (!request.done) pthread_cond_wait(&state_changed, &state_lock);
    pending = NULL;
    pthread_mutex_unlock(&state_lock);
    pthread_mutex_unlock(&spawn_lock);
    if (request.error == 0) *pid = request.pid;
    return request.error;
}
