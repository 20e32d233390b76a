// Peer for `gpuprims bench trap`: the trapezoidal rule as one would write it with
// thrust: transform_reduce over a counting iterator, f(x) = x^2 in float.
#include "thrust_trap.h"

#include <thrust/execution_policy.h>
#include <thrust/functional.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/system/cuda/execution_policy.h>
#include <thrust/system_error.h>
#include <thrust/transform_reduce.h>

namespace {
struct trap_height {
  float a, h;
  __host__ __device__ float operator()(unsigned long long i) const {
    const float x = a + (float)i * h;
    return x * x;
  }
};
}  // namespace

extern "C" int gpb_thrust_trap_run(float a, float b, unsigned long long n, void *stream,
                                   double *result) {
  const float h = (b - a) / (float)n;
  try {
    const float s = thrust::transform_reduce(
        thrust::cuda::par.on((cudaStream_t)stream), thrust::counting_iterator<unsigned long long>(1),
        thrust::counting_iterator<unsigned long long>(n), trap_height{a, h}, 0.0f,
        thrust::plus<float>());
    *result = (double)((s + 0.5f * (a * a + b * b)) * h);
  } catch (const thrust::system_error &e) {
    return e.code().value() ? e.code().value() : 1;
  } catch (...) {
    return 1;
  }
  return 0;
}
