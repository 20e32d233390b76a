// Peers of the reduce suite: cub::DeviceReduce::{Sum, Min, Max, ArgMin, ArgMax},
// cub::DeviceSegmentedReduce::{Sum, ArgMin, ArgMax} and thrust::reduce over
// the same device buffer and stream as gpuprims, temp storage allocated once up front.
// C++ is allowed here (bench/peers/ only); the C side sees the extern "C" API.
#include "cub_reduce.h"

#include <cub/device/device_reduce.cuh>
#include <cub/device/device_segmented_reduce.cuh>
#include <thrust/execution_policy.h>
#include <thrust/functional.h>
#include <thrust/reduce.h>

#include <cstdint>
#include <limits>
#include <new>

namespace {

// Hands thrust one block reserved up front; falls back to cudaMalloc if it asks for more.
struct cached_allocator {
  typedef char value_type;
  char *block = nullptr;
  size_t bytes = 0;
  bool in_use = false;
  char *allocate(std::ptrdiff_t n) {
    if (!in_use && (size_t)n <= bytes) { in_use = true; return block; }
    char *p = nullptr;
    if (cudaMalloc(&p, (size_t)n) != cudaSuccess) throw std::bad_alloc();
    return p;
  }
  void deallocate(char *p, size_t) {
    if (p == block) in_use = false;
    else cudaFree(p);
  }
};

}  // namespace

struct gpb_cub_reduce {
  int dtype, op;
  const void *in;
  void *out;
  size_t n;
  void *temp;
  size_t temp_bytes;
  cached_allocator alloc;
};

// gp_dtype order: F32, F64, I32, I64, U32, U64; gp_op: SUM, MIN, MAX.
template <typename T, typename O>
static cudaError_t cub_call(gpb_cub_reduce *r, void *temp, size_t &bytes, cudaStream_t st) {
  const T *in = (const T *)r->in;
  if (r->op == 0) return cub::DeviceReduce::Sum(temp, bytes, in, (O *)r->out, r->n, st);
  if (r->op == 1) return cub::DeviceReduce::Min(temp, bytes, in, (T *)r->out, r->n, st);
  return cub::DeviceReduce::Max(temp, bytes, in, (T *)r->out, r->n, st);
}

static cudaError_t cub_dispatch(gpb_cub_reduce *r, void *temp, size_t &bytes, cudaStream_t st) {
  switch (r->dtype) {
  case 0: return cub_call<float, float>(r, temp, bytes, st);
  case 1: return cub_call<double, double>(r, temp, bytes, st);
  case 2: return cub_call<int32_t, int64_t>(r, temp, bytes, st);
  case 3: return cub_call<int64_t, int64_t>(r, temp, bytes, st);
  case 4: return cub_call<uint32_t, uint64_t>(r, temp, bytes, st);
  default: return cub_call<uint64_t, uint64_t>(r, temp, bytes, st);
  }
}

template <typename T, typename O>
static cudaError_t thrust_call(gpb_cub_reduce *r, cudaStream_t st) {
  const T *in = (const T *)r->in;
  auto policy = thrust::cuda::par(r->alloc).on(st);
  try {
    if (r->op == 0) {
      O v = thrust::reduce(policy, in, in + r->n, O(0), thrust::plus<O>());
      return cudaMemcpyAsync(r->out, &v, sizeof v, cudaMemcpyHostToDevice, st);
    }
    T v = r->op == 1 ? thrust::reduce(policy, in, in + r->n, std::numeric_limits<T>::max(),
                                      thrust::minimum<T>())
                     : thrust::reduce(policy, in, in + r->n, std::numeric_limits<T>::lowest(),
                                      thrust::maximum<T>());
    // a pageable source: the copy completes before returning, so &v may go out of scope
    return cudaMemcpyAsync(r->out, &v, sizeof v, cudaMemcpyHostToDevice, st);
  } catch (...) {
    return cudaErrorUnknown;
  }
}

extern "C" int gpb_cub_reduce_create(gpb_cub_reduce **out, int dtype, int op, const void *d_in,
                                     size_t n, void *d_out) {
  *out = nullptr;
  gpb_cub_reduce *r = new (std::nothrow) gpb_cub_reduce();
  if (!r) return (int)cudaErrorMemoryAllocation;
  r->dtype = dtype;
  r->op = op;
  r->in = d_in;
  r->out = d_out;
  r->n = n;
  cudaError_t e = cub_dispatch(r, nullptr, r->temp_bytes, 0);
  if (e == cudaSuccess) e = cudaMalloc(&r->temp, r->temp_bytes ? r->temp_bytes : 1);
  // thrust::reduce runs CUB's reduce underneath: reserve the same plus room for its result
  r->alloc.bytes = r->temp_bytes + 4096;
  if (e == cudaSuccess) e = cudaMalloc(&r->alloc.block, r->alloc.bytes);
  if (e != cudaSuccess) {
    gpb_cub_reduce_destroy(r);
    return (int)e;
  }
  *out = r;
  return 0;
}

extern "C" int gpb_cub_reduce_run(gpb_cub_reduce *r, void *stream) {
  size_t bytes = r->temp_bytes;
  return (int)cub_dispatch(r, r->temp, bytes, (cudaStream_t)stream);
}

extern "C" int gpb_thrust_reduce_run(gpb_cub_reduce *r, void *stream) {
  cudaStream_t st = (cudaStream_t)stream;
  switch (r->dtype) {
  case 0: return (int)thrust_call<float, float>(r, st);
  case 1: return (int)thrust_call<double, double>(r, st);
  case 2: return (int)thrust_call<int32_t, int64_t>(r, st);
  case 3: return (int)thrust_call<int64_t, int64_t>(r, st);
  case 4: return (int)thrust_call<uint32_t, uint64_t>(r, st);
  default: return (int)thrust_call<uint64_t, uint64_t>(r, st);
  }
}

extern "C" void gpb_cub_reduce_destroy(gpb_cub_reduce *r) {
  if (!r) return;
  if (r->temp) cudaFree(r->temp);
  if (r->alloc.block) cudaFree(r->alloc.block);
  delete r;
}

// ---- arg-min / arg-max ----
struct gpb_cub_arg {
  int dtype, is_max;
  const void *in;
  void *value, *index;
  size_t n;
  void *temp;
  size_t temp_bytes;
};

template <typename T>
static cudaError_t arg_call(gpb_cub_arg *r, void *temp, size_t &bytes, cudaStream_t st) {
  const T *in = (const T *)r->in;
  ::cuda::std::int64_t *idx = (::cuda::std::int64_t *)r->index;
  if (r->is_max) return cub::DeviceReduce::ArgMax(temp, bytes, in, (T *)r->value, idx, (::cuda::std::int64_t)r->n, st);
  return cub::DeviceReduce::ArgMin(temp, bytes, in, (T *)r->value, idx, (::cuda::std::int64_t)r->n, st);
}

static cudaError_t arg_dispatch(gpb_cub_arg *r, void *temp, size_t &bytes, cudaStream_t st) {
  switch (r->dtype) {
  case 0: return arg_call<float>(r, temp, bytes, st);
  case 1: return arg_call<double>(r, temp, bytes, st);
  case 2: return arg_call<int32_t>(r, temp, bytes, st);
  case 3: return arg_call<int64_t>(r, temp, bytes, st);
  case 4: return arg_call<uint32_t>(r, temp, bytes, st);
  default: return arg_call<uint64_t>(r, temp, bytes, st);
  }
}

extern "C" int gpb_cub_arg_create(gpb_cub_arg **out, int dtype, int is_max, const void *d_in,
                                  size_t n, void *d_value, void *d_index) {
  *out = nullptr;
  gpb_cub_arg *r = new (std::nothrow) gpb_cub_arg();
  if (!r) return (int)cudaErrorMemoryAllocation;
  r->dtype = dtype;
  r->is_max = is_max;
  r->in = d_in;
  r->value = d_value;
  r->index = d_index;
  r->n = n;
  cudaError_t e = arg_dispatch(r, nullptr, r->temp_bytes, 0);
  if (e == cudaSuccess) e = cudaMalloc(&r->temp, r->temp_bytes ? r->temp_bytes : 1);
  if (e != cudaSuccess) {
    gpb_cub_arg_destroy(r);
    return (int)e;
  }
  *out = r;
  return 0;
}

extern "C" int gpb_cub_arg_run(gpb_cub_arg *r, void *stream) {
  size_t bytes = r->temp_bytes;
  return (int)arg_dispatch(r, r->temp, bytes, (cudaStream_t)stream);
}

extern "C" void gpb_cub_arg_destroy(gpb_cub_arg *r) {
  if (!r) return;
  if (r->temp) cudaFree(r->temp);
  delete r;
}

// ---- segmented sum over equal segments ----
struct gpb_cub_seg {
  int dtype;
  int arg; // 0: Sum; 1: ArgMin; 2: ArgMax (KeyValuePair<int, T> out)
  const void *in;
  void *out;
  size_t nseg;
  uint64_t *offsets; // nseg + 1, device
  void *temp;
  size_t temp_bytes;
};

template <typename T, typename O>
static cudaError_t seg_call(gpb_cub_seg *r, void *temp, size_t &bytes, cudaStream_t st) {
  return cub::DeviceSegmentedReduce::Sum(temp, bytes, (const T *)r->in, (O *)r->out,
                                         (::cuda::std::int64_t)r->nseg, r->offsets, r->offsets + 1, st);
}

template <typename T>
static cudaError_t segarg_call(gpb_cub_seg *r, void *temp, size_t &bytes, cudaStream_t st) {
  cub::KeyValuePair<int, T> *out = (cub::KeyValuePair<int, T> *)r->out;
  if (r->arg == 2)
    return cub::DeviceSegmentedReduce::ArgMax(temp, bytes, (const T *)r->in, out,
                                              (::cuda::std::int64_t)r->nseg, r->offsets, r->offsets + 1, st);
  return cub::DeviceSegmentedReduce::ArgMin(temp, bytes, (const T *)r->in, out,
                                            (::cuda::std::int64_t)r->nseg, r->offsets, r->offsets + 1, st);
}

static cudaError_t seg_dispatch(gpb_cub_seg *r, void *temp, size_t &bytes, cudaStream_t st) {
  if (r->arg) switch (r->dtype) {
    case 0: return segarg_call<float>(r, temp, bytes, st);
    case 1: return segarg_call<double>(r, temp, bytes, st);
    case 2: return segarg_call<int32_t>(r, temp, bytes, st);
    case 3: return segarg_call<int64_t>(r, temp, bytes, st);
    case 4: return segarg_call<uint32_t>(r, temp, bytes, st);
    default: return segarg_call<uint64_t>(r, temp, bytes, st);
    }
  switch (r->dtype) {
  case 0: return seg_call<float, float>(r, temp, bytes, st);
  case 1: return seg_call<double, double>(r, temp, bytes, st);
  case 2: return seg_call<int32_t, int64_t>(r, temp, bytes, st);
  case 3: return seg_call<int64_t, int64_t>(r, temp, bytes, st);
  case 4: return seg_call<uint32_t, uint64_t>(r, temp, bytes, st);
  default: return seg_call<uint64_t, uint64_t>(r, temp, bytes, st);
  }
}

extern "C" int gpb_cub_segarg_create_offsets(gpb_cub_seg **out, int dtype, int arg,
                                             const void *d_in, size_t nseg,
                                             const uint64_t *h_offsets, void *d_out) {
  *out = nullptr;
  gpb_cub_seg *r = new (std::nothrow) gpb_cub_seg();
  if (!r) return (int)cudaErrorMemoryAllocation;
  r->dtype = dtype;
  r->arg = arg;
  r->in = d_in;
  r->out = d_out;
  r->nseg = nseg;
  cudaError_t e = cudaMalloc(&r->offsets, (nseg + 1) * sizeof(uint64_t));
  if (e == cudaSuccess)
    e = cudaMemcpy(r->offsets, h_offsets, (nseg + 1) * sizeof(uint64_t), cudaMemcpyHostToDevice);
  if (e == cudaSuccess) e = seg_dispatch(r, nullptr, r->temp_bytes, 0);
  if (e == cudaSuccess) e = cudaMalloc(&r->temp, r->temp_bytes ? r->temp_bytes : 1);
  if (e != cudaSuccess) {
    gpb_cub_seg_destroy(r);
    return (int)e;
  }
  *out = r;
  return 0;
}

extern "C" int gpb_cub_seg_create_offsets(gpb_cub_seg **out, int dtype, const void *d_in,
                                          size_t nseg, const uint64_t *h_offsets, void *d_out) {
  return gpb_cub_segarg_create_offsets(out, dtype, 0, d_in, nseg, h_offsets, d_out);
}

extern "C" size_t gpb_cub_segarg_pair_bytes(int dtype) {
  return dtype == 0 || dtype == 2 || dtype == 4 ? sizeof(cub::KeyValuePair<int, float>)
                                                : sizeof(cub::KeyValuePair<int, double>);
}

extern "C" int gpb_cub_seg_create(gpb_cub_seg **out, int dtype, const void *d_in, size_t nseg,
                                  size_t seg_len, void *d_out) {
  *out = nullptr;
  uint64_t *h = new (std::nothrow) uint64_t[nseg + 1];
  if (!h) return (int)cudaErrorMemoryAllocation;
  for (size_t s = 0; s <= nseg; s++) h[s] = (uint64_t)(s * seg_len);
  const int e = gpb_cub_seg_create_offsets(out, dtype, d_in, nseg, h, d_out);
  delete[] h;
  return e;
}

extern "C" int gpb_cub_seg_run(gpb_cub_seg *r, void *stream) {
  size_t bytes = r->temp_bytes;
  return (int)seg_dispatch(r, r->temp, bytes, (cudaStream_t)stream);
}

extern "C" void gpb_cub_seg_destroy(gpb_cub_seg *r) {
  if (!r) return;
  if (r->offsets) cudaFree(r->offsets);
  if (r->temp) cudaFree(r->temp);
  delete r;
}
