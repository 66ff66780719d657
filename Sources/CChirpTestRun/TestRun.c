// What a test process needs from the system before any test runs, in C because it must happen
// before Swift code runs (a constructor) or between clone and exec (system calls only).
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
#include <sched.h>
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
    // A child that exits before it execs must not remove its parent's files.
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

/// Closes every descriptor from `first` up (in the child: system calls only).
static void close_from(int first) {
#ifdef SYS_close_range
    if (syscall(SYS_close_range, (unsigned)first, ~0U, 0U) == 0) return;
#endif
    long last = sysconf(_SC_OPEN_MAX);
    if (last < 0 || last > 65536) last = 65536;
    for (int fd = first; fd < last; fd++) close(fd);
}

/// What the child needs, on the spawning thread's side of the shared memory.
struct child_arguments {
    struct spawn_request *request;
    pid_t parent;
};

/// The child, between clone and exec. It shares the spawning thread's memory (CLONE_VM) on a
/// stack of its own, so it writes nothing but `request->error`, and makes only system calls.
static int child_main(void *argument) {
    struct child_arguments *arguments = argument;
    struct spawn_request *request = arguments->request;
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != arguments->parent) _exit(127);  // the parent ended before the line above
    // The handlers are the parent's (a copy of its table): none may run here, on shared memory,
    // once the signals are unblocked below. Ignored signals stay ignored, as across a fork.
    for (int signal_number = 1; signal_number < _NSIG; signal_number++) {
        struct sigaction action;
        if (signal_number == SIGKILL || signal_number == SIGSTOP) continue;
        if (sigaction(signal_number, NULL, &action) != 0) continue;
        if (action.sa_handler == SIG_IGN || action.sa_handler == SIG_DFL) continue;
        memset(&action, 0, sizeof action);
        action.sa_handler = SIG_DFL;
        sigaction(signal_number, &action, NULL);
    }
    setpgid(0, 0);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    if (dup2(request->input, 0) < 0 || dup2(request->output, 1) < 0 || dup2(request->output, 2) < 0) {
        request->error = errno;
        _exit(127);
    }
    close_from(3);
    execve(request->path, request->argv, request->envp);
    request->error = errno;
    _exit(127);
}

/// A child stack for `child_main`: one spawn at a time (the spawner thread), and the spawner
/// waits in clone until the child has exec'd or exited, so one stack serves every spawn.
static char child_stack[256 * 1024] __attribute__((aligned(16)));

/// Starts the child as posix_spawn does, with clone(CLONE_VM | CLONE_VFORK): the child shares
/// this process's memory until it execs, so nothing is copied. A fork of the test process (a
/// few GB of address space) copied its page tables and tore them down again at exec: an eighth
/// of the whole test run's CPU time.
static void spawn_child(struct spawn_request *request) {
    struct child_arguments arguments = { request, getpid() };
    request->error = 0;
    pid_t child = clone(child_main, child_stack + sizeof child_stack, CLONE_VM | CLONE_VFORK | SIGCHLD, &arguments);
    if (child < 0) {
        request->error = errno;
        return;
    }
    if (request->error != 0) {  // set by the child, which then exited
        int status;
        while (waitpid(child, &status, 0) < 0 && errno == EINTR) {}
        return;
    }
    request->pid = child;
}

static void *spawner_main(void *unused) {
    (void)unused;
    sigset_t all;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, NULL);  // signals are for the other threads
    pthread_mutex_lock(&state_lock);
    for (;;) {
        while (pending == NULL || pending->done) pthread_cond_wait(&state_changed, &state_lock);
        spawn_child(pending);
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
