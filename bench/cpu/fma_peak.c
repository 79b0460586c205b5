// One core's f32 FMA peak: ACC independent vector FMA chains that stay in
// registers (no loads), W lanes per vector (the width bench.py detects).
// Built by bench/cpu/bench.py with clang -O3 -march=native -DW=<lanes>.
#include <stdio.h>
#include <time.h>

#ifndef W
#define W 16
#endif
#define ACC 12

typedef float vec __attribute__((vector_size(W * 4)));

int main(void) {
  vec a[ACC], x, y;
  for (int i = 0; i < W; ++i) {
    x[i] = 1e-7f * i;
    y[i] = 0.9999999f;
  }
  for (int k = 0; k < ACC; ++k)
    for (int i = 0; i < W; ++i)
      a[k][i] = k + i;
  long iters = 800000000L / W;
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (long it = 0; it < iters; ++it) {
#pragma clang loop unroll(full)
    for (int k = 0; k < ACC; ++k)
      a[k] = a[k] * y + x;
    // Keeps the chains from being folded or vectorized away.
    __asm__ volatile("" : "+x"(a[0]), "+x"(a[1]), "+x"(a[2]), "+x"(a[3]));
  }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double s = (t1.tv_sec - t0.tv_sec) + 1e-9 * (t1.tv_nsec - t0.tv_nsec);
  float sum = 0;
  for (int k = 0; k < ACC; ++k)
    for (int i = 0; i < W; ++i)
      sum += a[k][i];
  printf("gflops: %.2f\nchecksum: %g\n", 2.0 * ACC * W * iters / s / 1e9, sum);
  return 0;
}
