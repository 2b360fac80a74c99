// Every thread's backtrace on SIGQUIT, for a process that hangs where no
// debugger is installed (the GPU machine). Preload it, send SIGQUIT, and
// symbolize the module+offset lines here against the unstripped build:
//   gcc -O1 -shared -fPIC -o stackdump.so scripts/stackdump.c
//   LD_PRELOAD=$PWD/stackdump.so ./cuzk_tests ... &   kill -QUIT $!
//   addr2line -f -C -i -e build-dev/cuzk_tests 0xOFFSET
// Found the driver deadlock of bench/gpu/NOTES.md ("A hang with two first
// proofs at once"). SIGQUIT and SIGUSR2 are taken over; not for production.
#define _GNU_SOURCE
#include <dirent.h>
#include <execinfo.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
static void on_usr2(int sig) {
  (void)sig;
  void* frames[64];
  int n = backtrace(frames, 64);
  char head[64];
  int len = snprintf(head, sizeof head, "=== thread %ld\n", (long)syscall(SYS_gettid));
  write(2, head, len);
  backtrace_symbols_fd(frames, n, 2);
}
static void on_quit(int sig) {
  (void)sig;
  DIR* d = opendir("/proc/self/task");
  struct dirent* e;
  pid_t pid = getpid();
  while ((e = readdir(d)) != NULL) {
    if (e->d_name[0] == '.') continue;
    syscall(SYS_tgkill, pid, atoi(e->d_name), SIGUSR2);
    usleep(200000);
  }
  closedir(d);
}
__attribute__((constructor)) static void install(void) {
  void* f[2];
  backtrace(f, 2);  // load libgcc_s before any signal
  signal(SIGUSR2, on_usr2);
  signal(SIGQUIT, on_quit);
}
