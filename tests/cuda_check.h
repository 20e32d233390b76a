/* CUDA_OK(call): a CUDA runtime call in a GPU test's own setup (allocations, copies); a
 * failure there is not the library's, so the test stops with the call and CUDA's words. */
#ifndef GP_TESTS_CUDA_CHECK_H
#define GP_TESTS_CUDA_CHECK_H

#include <cuda_runtime_api.h>
#include <stdio.h>
#include <stdlib.h>

#define CUDA_OK(call)                                                                  \
  do {                                                                                 \
    cudaError_t e_ = (call);                                                           \
    if (e_ != cudaSuccess) {                                                           \
      fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_)); \
      exit(1);                                                                         \
    }                                                                                  \
  } while (0)

#endif
