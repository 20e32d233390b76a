// Peers of the sort suite: cub::DeviceRadixSort::SortKeys / SortPairs (Descending) and
// cub::DeviceSegmentedSort::SortKeys(Descending) over the same device input as gpuprims,
// temp storage and segment offsets allocated once up front (outside the timed region).
#include "cub_sort.h"

#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_segmented_sort.cuh>

#include <cstdint>
#include <new>
#include <vector>

struct gpb_cub_sort {
  int dtype, desc;
  const void *in;
  void *out;
  size_t n, seg;
  long long *offsets;  // nseg + 1 entries: segment i is [offsets[i], offsets[i+1])
  const uint64_t *ext_offsets;  // the caller's offsets (gpb_cub_sort_offsets_create)
  size_t nseg;
  int value_bytes;     // pairs: 4 or 8; 0: keys alone
  const void *vin;
  void *vout;
  void *temp;
  size_t temp_bytes;
};

template <typename T, typename V>
static cudaError_t cub_pairs(gpb_cub_sort *r, void *temp, size_t &bytes, cudaStream_t st) {
  const T *in = (const T *)r->in;
  T *out = (T *)r->out;
  const V *vin = (const V *)r->vin;
  V *vout = (V *)r->vout;
  if (r->desc)
    return cub::DeviceRadixSort::SortPairsDescending(temp, bytes, in, out, vin, vout, (int64_t)r->n, 0,
                                                     (int)sizeof(T) * 8, st);
  return cub::DeviceRadixSort::SortPairs(temp, bytes, in, out, vin, vout, (int64_t)r->n, 0,
                                         (int)sizeof(T) * 8, st);
}

template <typename T>
static cudaError_t cub_call(gpb_cub_sort *r, void *temp, size_t &bytes, cudaStream_t st) {
  const T *in = (const T *)r->in;
  T *out = (T *)r->out;
  if (r->value_bytes == 4) return cub_pairs<T, uint32_t>(r, temp, bytes, st);
  if (r->value_bytes == 8) return cub_pairs<T, uint64_t>(r, temp, bytes, st);
  if (r->ext_offsets) {
    if (r->desc)
      return cub::DeviceSegmentedSort::SortKeysDescending(temp, bytes, in, out, (int64_t)r->n,
                                                          (int64_t)r->nseg, r->ext_offsets,
                                                          r->ext_offsets + 1, st);
    return cub::DeviceSegmentedSort::SortKeys(temp, bytes, in, out, (int64_t)r->n, (int64_t)r->nseg,
                                              r->ext_offsets, r->ext_offsets + 1, st);
  }
  if (r->seg == 0) {
    if (r->desc) return cub::DeviceRadixSort::SortKeysDescending(temp, bytes, in, out, (int64_t)r->n, 0, (int)sizeof(T) * 8, st);
    return cub::DeviceRadixSort::SortKeys(temp, bytes, in, out, (int64_t)r->n, 0, (int)sizeof(T) * 8, st);
  }
  int64_t nseg = (int64_t)(r->n / r->seg);
  if (r->desc)
    return cub::DeviceSegmentedSort::SortKeysDescending(temp, bytes, in, out, (int64_t)r->n, nseg,
                                                        r->offsets, r->offsets + 1, st);
  return cub::DeviceSegmentedSort::SortKeys(temp, bytes, in, out, (int64_t)r->n, nseg,
                                            r->offsets, r->offsets + 1, st);
}

// gp_dtype order: F32, F64, I32, I64, U32, U64.
static cudaError_t cub_dispatch(gpb_cub_sort *r, void *temp, size_t &bytes, cudaStream_t st) {
  switch (r->dtype) {
  case 0: return cub_call<float>(r, temp, bytes, st);
  case 1: return cub_call<double>(r, temp, bytes, st);
  case 2: return cub_call<int32_t>(r, temp, bytes, st);
  case 3: return cub_call<int64_t>(r, temp, bytes, st);
  case 4: return cub_call<uint32_t>(r, temp, bytes, st);
  default: return cub_call<uint64_t>(r, temp, bytes, st);
  }
}

extern "C" int gpb_cub_sort_create(gpb_cub_sort **out, int dtype, const void *d_in, void *d_out,
                                   size_t n, size_t seg, int desc) {
  *out = nullptr;
  gpb_cub_sort *r = new (std::nothrow) gpb_cub_sort();
  if (!r) return (int)cudaErrorMemoryAllocation;
  r->dtype = dtype;
  r->desc = desc;
  r->in = d_in;
  r->out = d_out;
  r->n = n;
  r->seg = seg;
  cudaError_t e = cudaSuccess;
  if (seg) {
    size_t nseg = n / seg;
    std::vector<long long> h(nseg + 1);
    for (size_t i = 0; i <= nseg; i++) h[i] = (long long)(i * seg);
    e = cudaMalloc(&r->offsets, (nseg + 1) * sizeof(long long));
    if (e == cudaSuccess)
      e = cudaMemcpy(r->offsets, h.data(), (nseg + 1) * sizeof(long long), cudaMemcpyHostToDevice);
  }
  if (e == cudaSuccess) e = cub_dispatch(r, nullptr, r->temp_bytes, 0);
  if (e == cudaSuccess) e = cudaMalloc(&r->temp, r->temp_bytes ? r->temp_bytes : 1);
  if (e != cudaSuccess) {
    gpb_cub_sort_destroy(r);
    return (int)e;
  }
  *out = r;
  return 0;
}

static int cub_create_common(gpb_cub_sort **out, gpb_cub_sort *r) {
  cudaError_t e = cub_dispatch(r, nullptr, r->temp_bytes, 0);
  if (e == cudaSuccess) e = cudaMalloc(&r->temp, r->temp_bytes ? r->temp_bytes : 1);
  if (e != cudaSuccess) {
    gpb_cub_sort_destroy(r);
    return (int)e;
  }
  *out = r;
  return 0;
}

extern "C" int gpb_cub_sort_pairs_create(gpb_cub_sort **out, int dtype, const void *d_in,
                                         void *d_out, int value_bytes, const void *d_vin,
                                         void *d_vout, size_t n, int desc) {
  *out = nullptr;
  gpb_cub_sort *r = new (std::nothrow) gpb_cub_sort();
  if (!r) return (int)cudaErrorMemoryAllocation;
  r->dtype = dtype;
  r->desc = desc;
  r->in = d_in;
  r->out = d_out;
  r->n = n;
  r->value_bytes = value_bytes;
  r->vin = d_vin;
  r->vout = d_vout;
  return cub_create_common(out, r);
}

extern "C" int gpb_cub_sort_offsets_create(gpb_cub_sort **out, int dtype, const void *d_in,
                                           void *d_out, size_t n, const uint64_t *d_offsets,
                                           size_t nseg, int desc) {
  *out = nullptr;
  gpb_cub_sort *r = new (std::nothrow) gpb_cub_sort();
  if (!r) return (int)cudaErrorMemoryAllocation;
  r->dtype = dtype;
  r->desc = desc;
  r->in = d_in;
  r->out = d_out;
  r->n = n;
  r->ext_offsets = d_offsets;
  r->nseg = nseg;
  return cub_create_common(out, r);
}

extern "C" int gpb_cub_sort_run(gpb_cub_sort *r, void *stream) {
  size_t bytes = r->temp_bytes;
  return (int)cub_dispatch(r, r->temp, bytes, (cudaStream_t)stream);
}

extern "C" void gpb_cub_sort_destroy(gpb_cub_sort *r) {
  if (!r) return;
  if (r->temp) cudaFree(r->temp);
  if (r->offsets) cudaFree(r->offsets);
  delete r;
}
