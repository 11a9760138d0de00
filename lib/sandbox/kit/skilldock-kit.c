/*
 * skilldock-kit: Skilldock's own control program inside a Docker sandbox. It is built static (no
 * loader, no library a sandbox could replace) and reaches the sandbox from a read-only volume, so
 * nothing a sandbox process writes changes what it does.
 *
 *   run [-t SECONDS] [-i ID] -- PROG ARG...   run PROG as a child; every process it starts stays
 *                                             below this one (child subreaper), and all of them are
 *                                             killed when PROG ends, at the deadline (exit 137),
 *                                             or on SIGTERM/SIGHUP (exit 143/129)
 *   kill ID                                   end the `run -i ID` processes and all below them
 *   now                                       the clock, as SECONDS.NANOSECONDS
 *   changed SEC NSEC MAX ROOT...              regular files and symlinks under each ROOT (one file
 *                                             system each) whose inode changed at or after the
 *                                             time: content, rename, link, mode and touch all
 *                                             change it, and nothing but the clock sets it back
 *   ls DIR                                    "MODEHEX SIZE MTIME PATH" per entry of DIR
 *
 * Process lists come from /proc, which the kernel writes; the sandbox cannot forge it.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_PIDS 65536

static pid_t parent_of(pid_t pid) {
  char path[64], buf[512];
  snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return -1;
  ssize_t n = read(fd, buf, sizeof buf - 1);
  close(fd);
  if (n <= 0) return -1;
  buf[n] = 0;
  /* The command name may hold spaces and parentheses: the fields start after the last ')'. */
  char *p = strrchr(buf, ')');
  if (!p) return -1;
  char state;
  int ppid;
  if (sscanf(p + 1, " %c %d", &state, &ppid) != 2) return -1;
  if (state == 'Z') return -2; /* a zombie: only reaping ends it */
  return (pid_t)ppid;
}

/* Every live process below `root` (not root itself); returns how many were written to out. */
static int descendants(pid_t root, pid_t *out, int cap) {
  static pid_t pids[MAX_PIDS], parents[MAX_PIDS];
  int n = 0;
  DIR *d = opendir("/proc");
  if (!d) return 0;
  struct dirent *e;
  while ((e = readdir(d)) && n < MAX_PIDS) {
    char *end;
    long v = strtol(e->d_name, &end, 10);
    if (*end || v <= 0) continue;
    pid_t pp = parent_of((pid_t)v);
    if (pp < 0) continue;
    pids[n] = (pid_t)v;
    parents[n] = pp;
    n++;
  }
  closedir(d);
  /* Grow the set from the root until a pass adds nothing. */
  int found = 0;
  char *in = calloc((size_t)n, 1);
  if (!in) return 0;
  for (int changed = 1; changed;) {
    changed = 0;
    for (int i = 0; i < n; i++) {
      if (in[i]) continue;
      int below = parents[i] == root;
      for (int j = 0; !below && j < n; j++) below = in[j] && parents[i] == pids[j];
      if (below) {
        in[i] = 1;
        changed = 1;
        if (found < cap) out[found++] = pids[i];
      }
    }
  }
  free(in);
  return found;
}

static void reap(void) {
  while (waitpid(-1, NULL, WNOHANG) > 0) {
  }
}

/* SIGKILL everything below `root` until nothing is left (reaping when root is us). */
static int kill_tree(pid_t root) {
  static pid_t list[MAX_PIDS];
  for (int round = 0; round < 200; round++) {
    int n = descendants(root, list, MAX_PIDS);
    if (root == getpid()) reap();
    if (n == 0) return 0;
    for (int i = 0; i < n; i++) kill(list[i], SIGKILL);
    if (root == getpid()) reap();
    struct timespec ts = {0, 5 * 1000 * 1000};
    nanosleep(&ts, NULL);
  }
  return 3;
}

static volatile sig_atomic_t stop_signal = 0;
static volatile sig_atomic_t deadline_hit = 0;
static void on_stop(int sig) { stop_signal = sig; }
static void on_alarm(int sig) {
  (void)sig;
  deadline_hit = 1;
}

static int cmd_run(int argc, char **argv) {
  long timeout = 0;
  int i = 0;
  for (; i < argc; i++) {
    if (!strcmp(argv[i], "--")) {
      i++;
      break;
    }
    if (!strcmp(argv[i], "-t") && i + 1 < argc) timeout = strtol(argv[++i], NULL, 10);
    else if (!strcmp(argv[i], "-i") && i + 1 < argc) i++;
    else {
      fprintf(stderr, "skilldock-kit: run: unknown option %s\n", argv[i]);
      return 125;
    }
  }
  if (i >= argc) {
    fprintf(stderr, "skilldock-kit: run: no program\n");
    return 125;
  }
  if (prctl(PR_SET_CHILD_SUBREAPER, 1) != 0) {
    perror("skilldock-kit: subreaper");
    return 125;
  }
  /* Terminal-generated signals go to the shell's process group, never end the kit. */
  signal(SIGINT, SIG_IGN);
  signal(SIGQUIT, SIG_IGN);
  signal(SIGTSTP, SIG_IGN);
  signal(SIGTTIN, SIG_IGN);
  signal(SIGTTOU, SIG_IGN);
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_stop;
  sigaction(SIGTERM, &sa, NULL);
  sigaction(SIGHUP, &sa, NULL);
  sa.sa_handler = on_alarm;
  sigaction(SIGALRM, &sa, NULL);

  pid_t child = fork();
  if (child < 0) {
    perror("skilldock-kit: fork");
    return 125;
  }
  if (child == 0) {
    signal(SIGINT, SIG_DFL);
    signal(SIGQUIT, SIG_DFL);
    signal(SIGTSTP, SIG_DFL);
    signal(SIGTTIN, SIG_DFL);
    signal(SIGTTOU, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    signal(SIGHUP, SIG_DFL);
    signal(SIGALRM, SIG_DFL);
    execvp(argv[i], argv + i);
    fprintf(stderr, "skilldock-kit: %s: %s\n", argv[i], strerror(errno));
    _exit(errno == ENOENT ? 127 : 126);
  }
  if (timeout > 0) alarm((unsigned)timeout);
  int status = 0, code = -1;
  for (;;) {
    int st;
    pid_t w = waitpid(-1, &st, 0);
    if (w == child) {
      status = st;
      code = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
      break;
    }
    if (w < 0 && errno == EINTR && (deadline_hit || stop_signal)) break;
    if (w < 0 && errno == ECHILD) break;
  }
  (void)status;
  alarm(0);
  kill_tree(getpid());
  if (deadline_hit && code < 0) return 137;
  if (stop_signal && code < 0) return 128 + stop_signal;
  return code < 0 ? 137 : code;
}

/* Whether pid runs this very program (same file) as `run -i id`. */
static int is_run_with_id(pid_t pid, const char *id, const struct stat *self) {
  char path[64], buf[4096];
  struct stat st;
  snprintf(path, sizeof path, "/proc/%d/exe", (int)pid);
  if (stat(path, &st) != 0 || st.st_dev != self->st_dev || st.st_ino != self->st_ino) return 0;
  snprintf(path, sizeof path, "/proc/%d/cmdline", (int)pid);
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return 0;
  ssize_t n = read(fd, buf, sizeof buf - 1);
  close(fd);
  if (n <= 0) return 0;
  buf[n] = 0;
  /* argv: kit run [-t N] -i ID -- ... */
  char *args[16];
  int argc = 0;
  for (char *p = buf; p < buf + n && argc < 16; p += strlen(p) + 1) args[argc++] = p;
  if (argc < 2 || strcmp(args[1], "run")) return 0;
  for (int i = 2; i + 1 < argc; i++) {
    if (!strcmp(args[i], "--")) break;
    if (!strcmp(args[i], "-i")) return !strcmp(args[i + 1], id);
  }
  return 0;
}

static int cmd_kill(const char *id) {
  struct stat self;
  if (stat("/proc/self/exe", &self) != 0) return 2;
  int result = 0;
  for (int round = 0; round < 3; round++) {
    DIR *d = opendir("/proc");
    if (!d) return 2;
    struct dirent *e;
    int seen = 0;
    while ((e = readdir(d))) {
      char *end;
      long v = strtol(e->d_name, &end, 10);
      if (*end || v <= 1 || v == getpid()) continue;
      if (!is_run_with_id((pid_t)v, id, &self)) continue;
      seen++;
      /* Kill below it while it still reaps and adopts, then the kit itself. */
      kill(v, SIGSTOP);
      if (kill_tree((pid_t)v) != 0) result = 3;
      kill(v, SIGKILL);
    }
    closedir(d);
    if (!seen) return result;
  }
  return result;
}

static struct timespec since;
static long max_out, printed, visited;
static const long MAX_VISITED = 500000;

static int on_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw) {
  (void)ftw;
  if (++visited > MAX_VISITED) {
    printf("!truncated\n");
    return 1;
  }
  if (flag == FTW_D || flag == FTW_DNR || flag == FTW_NS) return 0;
  if (!S_ISREG(st->st_mode) && !S_ISLNK(st->st_mode)) return 0;
  if (st->st_ctim.tv_sec < since.tv_sec || (st->st_ctim.tv_sec == since.tv_sec && st->st_ctim.tv_nsec < since.tv_nsec)) return 0;
  if (strchr(path, '\n')) {
    printf("!newline\n");
    return 0;
  }
  if (printed >= max_out) {
    printf("!truncated\n");
    return 1;
  }
  printf("%c %lld %s\n", S_ISLNK(st->st_mode) ? 'l' : (st->st_mode & 0111 ? 'x' : 'f'), (long long)st->st_size, path);
  printed++;
  return 0;
}

static int cmd_changed(int argc, char **argv) {
  if (argc < 4) return 2;
  since.tv_sec = strtol(argv[0], NULL, 10);
  since.tv_nsec = strtol(argv[1], NULL, 10);
  max_out = strtol(argv[2], NULL, 10);
  for (int i = 3; i < argc; i++) {
    struct stat st;
    if (lstat(argv[i], &st) != 0 || !S_ISDIR(st.st_mode)) continue;
    if (nftw(argv[i], on_entry, 32, FTW_PHYS | FTW_MOUNT) == 1) break;
  }
  return 0;
}

static int cmd_ls(const char *dir) {
  DIR *d = opendir(dir);
  if (!d) {
    fprintf(stderr, "%s: %s\n", dir, strerror(errno));
    return errno == ENOENT || errno == ENOTDIR ? 4 : 1;
  }
  struct dirent *e;
  char path[PATH_MAX];
  while ((e = readdir(d))) {
    if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..") || strchr(e->d_name, '\n')) continue;
    snprintf(path, sizeof path, "%s/%s", strcmp(dir, "/") ? dir : "", e->d_name);
    struct stat st;
    if (lstat(path, &st) != 0) continue;
    printf("%x %lld %lld %s\n", (unsigned)st.st_mode, (long long)st.st_size, (long long)st.st_mtim.tv_sec, path);
  }
  closedir(d);
  return 0;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: skilldock-kit run|kill|now|changed|ls ...\n");
    return 2;
  }
  if (!strcmp(argv[1], "run")) return cmd_run(argc - 2, argv + 2);
  if (!strcmp(argv[1], "kill") && argc == 3) return cmd_kill(argv[2]);
  if (!strcmp(argv[1], "now")) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    printf("%lld.%09ld\n", (long long)ts.tv_sec, ts.tv_nsec);
    return 0;
  }
  if (!strcmp(argv[1], "changed")) return cmd_changed(argc - 2, argv + 2);
  if (!strcmp(argv[1], "ls") && argc == 3) return cmd_ls(argv[2]);
  fprintf(stderr, "skilldock-kit: unknown command %s\n", argv[1]);
  return 2;
}
