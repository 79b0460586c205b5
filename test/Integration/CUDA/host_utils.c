/* The few host symbols an ahead-of-time compiled flash-mlir test program
 * calls (vector.print, bf16 truncation), so that the executables run on a
 * machine without LLVM's runner libraries (the GPU machine has no MLIR). */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

void printF32(float f) { printf("%g", f); }
void printF64(double f) { printf("%g", f); }
void printI64(int64_t i) { printf("%" PRId64, i); }
void printU64(uint64_t u) { printf("%" PRIu64, u); }
void printNewline(void) { printf("\n"); }
void printComma(void) { printf(", "); }
void printOpen(void) { printf("( "); }
void printClose(void) { printf(" )"); }
void printString(const char *s) { fputs(s, stdout); }
double rtclock(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* f32 -> bf16, round to nearest even (NaN stays NaN); returned as __bf16
 * (in an SSE register on x86-64, as compiler-rt's). */
__bf16 __truncsfbf2(float f) {
  uint32_t x;
  uint16_t r;
  __bf16 b;
  memcpy(&x, &f, sizeof x);
  if ((x & 0x7fffffff) > 0x7f800000)
    r = (uint16_t)((x >> 16) | 0x40);
  else
    r = (uint16_t)((x + 0x7fff + ((x >> 16) & 1)) >> 16);
  memcpy(&b, &r, sizeof b);
  return b;
}
