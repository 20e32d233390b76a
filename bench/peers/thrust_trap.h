/* Peer for the trap suite: thrust::transform_reduce over a counting iterator with
 * f(x) = x^2 in float (bench/peers/thrust_trap.cu), callable from C. CUDA builds only. */
#ifndef GP_BENCH_PEERS_THRUST_TRAP_H
#define GP_BENCH_PEERS_THRUST_TRAP_H

#ifdef __cplusplus
extern "C" {
#endif

/* h * ((f(a) + f(b)) / 2 + sum_{0<i<n} f(a + i h)) with x and f in float and thrust's
 * float accumulator, on `stream` (thrust::cuda::par.on). transform_reduce returns the
 * sum to the host, so it synchronizes: part of what thrust costs. Returns a cudaError_t
 * (0: success). */
int gpb_thrust_trap_run(float a, float b, unsigned long long n, void *stream, double *result);

#ifdef __cplusplus
}
#endif
#endif
