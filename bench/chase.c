// chase: memory latency with no JVM involved. A dependent random walk over MEGABYTES of memory
// (one load must finish before the next address is known) prints nanoseconds per load; a compute
// loop prints nanoseconds per iteration. bench/health.sh runs both, so a run can tell "this VM's
// memory got slow" (round 7: a 4 MB walk went from 21 to 65-112 ns within the hour) from "Sluice
// got slow". Build and run:  gcc -O2 -o /tmp/chase bench/chase.c && taskset -c 0 /tmp/chase 64
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec * 1e9 + t.tv_nsec; }
int main(int argc, char **argv) {
  size_t bytes = (size_t)(argc > 1 ? atol(argv[1]) : 64) << 20, n = bytes / sizeof(size_t);
  size_t *next = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (next == MAP_FAILED) { perror("mmap"); return 1; }
  for (size_t i = 0; i < n; i++) next[i] = i;
  srand(1); // Sattolo's shuffle: one cycle through every slot, so the walk never short-circuits
  for (size_t i = n - 1; i > 0; i--) { size_t j = ((size_t)rand() * RAND_MAX + rand()) % i, t = next[i]; next[i] = next[j]; next[j] = t; }
  long loads = 20000000; size_t p = 0; double start = now();
  for (long i = 0; i < loads; i++) p = next[p];
  double walk = (now() - start) / loads;
  volatile unsigned long x = 1; long iterations = 200000000; start = now();
  for (long i = 0; i < iterations; i++) x = x * 6364136223846793005UL + 1442695040888963407UL;
  printf("random walk over %zu MB: %.1f ns per load; compute loop: %.2f ns per iteration (%zu)\n", bytes >> 20, walk,
         (now() - start) / iterations, p & 1);
  return 0;
}
