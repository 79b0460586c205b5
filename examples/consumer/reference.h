/*===- reference.h - Inputs and the unfused reference of attention.mlir --===*/
/*                                                                          */
/* Shared by both consumers (C and C++): the shapes of attention.mlir,      */
/* deterministic inputs that are neither equal nor zero, and softmax(scale  */
/* q k^T) v computed directly, in double, one row at a time.                */
/*                                                                          */
/*===----------------------------------------------------------------------===*/

#ifndef FLASH_CONSUMER_REFERENCE_H
#define FLASH_CONSUMER_REFERENCE_H

#include <math.h>
#include <stdint.h>

enum { kBatch = 6, kNq = 77, kNk = 93, kD = 32 };

/* A memref<?x?x?xf32> descriptor as the C interface passes it. */
typedef struct {
  float *allocated;
  float *aligned;
  int64_t offset;
  int64_t sizes[3];
  int64_t strides[3];
} MemRef3D;

static inline MemRef3D memref3D(float *data, int64_t n0, int64_t n1,
                                int64_t n2) {
  MemRef3D m = {data, data, 0, {n0, n1, n2}, {n1 * n2, n2, 1}};
  return m;
}

/* Uniform in [-1, 1) from a linear congruential generator. */
static inline void fillInputs(float *x, int64_t n, uint32_t seed) {
  for (int64_t i = 0; i < n; ++i) {
    seed = seed * 1664525u + 1013904223u;
    x[i] = (float)((seed >> 8) * (1.0 / 8388608.0) - 1.0);
  }
}

/* o[b][i] = sum_j softmax_j(scale * q[b][i] . k[b][j]) v[b][j]. */
static inline void referenceAttention(const float *q, const float *k,
                                      const float *v, float *o) {
  const double scale = (double)0.176776695f;
  double s[kNk];
  for (int b = 0; b < kBatch; ++b)
    for (int i = 0; i < kNq; ++i) {
      const float *qi = q + ((int64_t)b * kNq + i) * kD;
      double max = -INFINITY, sum = 0;
      for (int j = 0; j < kNk; ++j) {
        const float *kj = k + ((int64_t)b * kNk + j) * kD;
        double dot = 0;
        for (int d = 0; d < kD; ++d)
          dot += (double)qi[d] * kj[d];
        s[j] = scale * dot;
        max = s[j] > max ? s[j] : max;
      }
      for (int j = 0; j < kNk; ++j)
        sum += (s[j] = exp(s[j] - max));
      for (int d = 0; d < kD; ++d) {
        double acc = 0;
        for (int j = 0; j < kNk; ++j)
          acc += s[j] * v[((int64_t)b * kNk + j) * kD + d];
        o[((int64_t)b * kNq + i) * kD + d] = (float)(acc / sum);
      }
    }
}

/* The largest |a - b| over n values. */
static inline double maxError(const float *a, const float *b, int64_t n) {
  double e = 0;
  for (int64_t i = 0; i < n; ++i) {
    double d = fabs((double)a[i] - b[i]);
    e = d > e ? d : e;
  }
  return e;
}

#endif /* FLASH_CONSUMER_REFERENCE_H */
