// wake: the OS's timer and scheduling latency on one CPU, with no JVM involved. It sleeps to
// absolute deadlines every PERIOD microseconds for SECONDS seconds and prints how late it woke
// (p50, p99, p99.9, max). BENCHMARKS.md ("Tail latency: the VM's idle vCPU") uses it to show that
// an idle vCPU of this VM wakes a sleeping thread up to 1.4 ms late at p99, a busy one ~0.1 ms.
// Build and run:  gcc -O2 -o /tmp/wake bench/wake.c && taskset -c 0 /tmp/wake 250 10
// Keep the CPU busy meanwhile:  taskset -c 0 chrt -i 0 sh -c 'while :; do :; done' &
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
static int cmp(const void *a, const void *b) { long x = *(long *)a, y = *(long *)b; return x < y ? -1 : x > y; }
int main(int argc, char **argv) {
  long period = argc > 1 ? atol(argv[1]) * 1000 : 250000, secs = argc > 2 ? atol(argv[2]) : 10;
  long n = secs * 1000000000L / period; long *late = malloc(n * sizeof(long));
  struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t);
  long next = t.tv_sec * 1000000000L + t.tv_nsec;
  for (long i = 0; i < n; i++) {
    next += period;
    struct timespec d = {next / 1000000000L, next % 1000000000L};
    clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &d, NULL);
    clock_gettime(CLOCK_MONOTONIC, &t);
    late[i] = t.tv_sec * 1000000000L + t.tv_nsec - next;
  }
  qsort(late, n, sizeof(long), cmp);
  printf("wakeups %ld every %ld us: late p50 %.1f us p99 %.1f us p99.9 %.1f us max %.1f us\n", n, period / 1000,
         late[n / 2] / 1e3, late[n * 99 / 100] / 1e3, late[n * 999 / 1000] / 1e3, late[n - 1] / 1e3);
  return 0;
}
