/* Peers for the reduce suite: CUB DeviceReduce (Sum, Min, Max, ArgMin, ArgMax),
 * DeviceSegmentedReduce::Sum, ArgMin, ArgMax and thrust::reduce on a device buffer
 * (bench/peers/cub_reduce.cu), callable from C. Compiled only with CUDA. */
#ifndef GP_BENCH_PEERS_CUB_REDUCE_H
#define GP_BENCH_PEERS_CUB_REDUCE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct gpb_cub_reduce gpb_cub_reduce;

/* Prepares a reduction of n elements of gp_dtype `dtype` at device pointer d_in with
 * gp_op `op` into device pointer d_out, whose type is gp_reduce_out_type(op, dtype)
 * (CUB accumulates in the output type, so integer sums widen as ours do). The temporary
 * storage of CUB and of thrust is allocated here, once, outside any timed region.
 * Returns a cudaError_t (0: success); on failure *r is NULL. */
int gpb_cub_reduce_create(gpb_cub_reduce **r, int dtype, int op, const void *d_in, size_t n,
                          void *d_out);
/* Enqueues cub::DeviceReduce::Sum / Min / Max on stream. Asynchronous. */
int gpb_cub_reduce_run(gpb_cub_reduce *r, void *stream);
/* thrust::reduce on stream (thrust::cuda::par(cached allocator).on(stream)); it returns
 * the value to the host, so it synchronizes: part of what thrust costs. The result is
 * also copied to d_out so it can be checked. */
int gpb_thrust_reduce_run(gpb_cub_reduce *r, void *stream);
void gpb_cub_reduce_destroy(gpb_cub_reduce *r);

/* cub::DeviceReduce::ArgMin / ArgMax (is_max) of n elements of `dtype` at d_in: the
 * value into d_value (one element), the index into d_index (int64). Same conventions. */
typedef struct gpb_cub_arg gpb_cub_arg;
int gpb_cub_arg_create(gpb_cub_arg **r, int dtype, int is_max, const void *d_in, size_t n,
                       void *d_value, void *d_index);
int gpb_cub_arg_run(gpb_cub_arg *r, void *stream);
void gpb_cub_arg_destroy(gpb_cub_arg *r);

/* cub::DeviceSegmentedReduce::Sum over nseg segments of seg_len consecutive elements
 * (begin/end offsets in a device array built here) into d_out (nseg elements of
 * gp_reduce_out_type(GP_SUM, dtype)). Same conventions. */
typedef struct gpb_cub_seg gpb_cub_seg;
int gpb_cub_seg_create(gpb_cub_seg **r, int dtype, const void *d_in, size_t nseg, size_t seg_len,
                       void *d_out);
/* The same over nseg segments by host offsets h_offsets[0 .. nseg] (copied to the GPU). */
int gpb_cub_seg_create_offsets(gpb_cub_seg **r, int dtype, const void *d_in, size_t nseg,
                               const uint64_t *h_offsets, void *d_out);
/* cub::DeviceSegmentedReduce::ArgMin (arg 1) / ArgMax (arg 2) by host offsets: d_out gets
 * nseg KeyValuePair<int, T> (key: the position in the segment, at byte 0; the value
 * after it), gpb_cub_segarg_pair_bytes(dtype) bytes each. */
int gpb_cub_segarg_create_offsets(gpb_cub_seg **r, int dtype, int arg, const void *d_in,
                                  size_t nseg, const uint64_t *h_offsets, void *d_out);
size_t gpb_cub_segarg_pair_bytes(int dtype);
int gpb_cub_seg_run(gpb_cub_seg *r, void *stream);
void gpb_cub_seg_destroy(gpb_cub_seg *r);

#ifdef __cplusplus
}
#endif
#endif
