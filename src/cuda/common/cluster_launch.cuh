/* The launch configuration of a 1-d grid of thread-block clusters (cudaLaunchKernelEx,
 * cudaOccupancyMaxActiveClusters): `clusters` clusters of `cl` blocks of `threads`
 * threads, `smem` bytes of dynamic shared memory each, on `stream`. The one attribute
 * (the cluster's shape) lives in *attr, which must outlive the config's use. Used by
 * the bitonic and radix cluster sorts (src/cuda/sort/). */
#ifndef GP_CUDA_COMMON_CLUSTER_LAUNCH_CUH
#define GP_CUDA_COMMON_CLUSTER_LAUNCH_CUH

#include <cuda_runtime.h>

static inline cudaLaunchConfig_t gp_cluster_config(cudaLaunchAttribute *attr, unsigned clusters,
                                                   unsigned cl, unsigned threads, size_t smem,
                                                   cudaStream_t stream) {
  cudaLaunchConfig_t cfg = {};
  cfg.gridDim = dim3(clusters * cl, 1, 1);
  cfg.blockDim = dim3(threads, 1, 1);
  cfg.dynamicSmemBytes = smem;
  cfg.stream = stream;
  attr->id = cudaLaunchAttributeClusterDimension;
  attr->val.clusterDim.x = cl;
  attr->val.clusterDim.y = 1;
  attr->val.clusterDim.z = 1;
  cfg.attrs = attr;
  cfg.numAttrs = 1;
  return cfg;
}

#endif
