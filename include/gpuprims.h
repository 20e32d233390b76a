/* gpuprims: GPU parallel primitives (reduction, trapezoidal integration, sorting)
 * with a CUDA backend and a CPU backend, and the cost models that explain them.
 * This is the one public header; every function is documented where it is declared.
 *
 * Conventions for every function below:
 *  - Nothing exits, prints or aborts. A failure returns a status other than GP_OK and
 *    gp_last_error(ctx) says, in words, what happened and what to do. A failed call
 *    leaves the caller's data as it was.
 *  - Array arguments may be host, device or managed memory; the library finds out
 *    which and stages host data itself. With device memory for every array argument a
 *    call is asynchronous on the context's stream (see gp_set_stream); otherwise it
 *    returns when the result is in the caller's memory.
 *  - Sizes are size_t: arrays of more than 2^32 elements work.
 */
#ifndef GPUPRIMS_H
#define GPUPRIMS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define GP_VERSION_MAJOR 0
#define GP_VERSION_MINOR 1
#define GP_VERSION_PATCH 0
/* "0.1.0 (cuda)" or "0.1.0 (cpu only)": the version and the backends compiled in. */
const char *gp_version(void);

/* ---- status ---------------------------------------------------------------- */
typedef enum gp_status {
  GP_OK = 0,
  GP_ERR_INVALID_ARGUMENT, /* a NULL pointer, an unknown enum, a size that does not fit */
  GP_ERR_UNSUPPORTED,      /* valid, but not available here (backend, dtype, op) */
  GP_ERR_NO_DEVICE,        /* a CUDA context was asked for and no GPU is usable */
  GP_ERR_OUT_OF_MEMORY,    /* host or device allocation failed */
  GP_ERR_CUDA,             /* the CUDA runtime or a kernel failed */
  GP_ERR_IO,               /* a file could not be read or written */
  GP_ERR_FORMAT,           /* a file's contents are not what its format says */
  GP_ERR_PARSE             /* an expression or a number could not be parsed */
} gp_status;
/* "GP_ERR_INVALID_ARGUMENT" and so on; "unknown status" for a value outside the enum. */
const char *gp_status_string(gp_status s);

/* ---- context ----------------------------------------------------------------- */
typedef enum gp_backend { GP_BACKEND_AUTO, GP_BACKEND_CUDA, GP_BACKEND_CPU } gp_backend;
typedef struct gp_context gp_context;

/* Creates a context. AUTO takes the CUDA backend when a GPU is usable, else the CPU.
 * CUDA on a machine without a usable GPU fails with GP_ERR_NO_DEVICE (or
 * GP_ERR_UNSUPPORTED when gpuprims was built without CUDA). On failure *ctx is still
 * a valid context whose gp_last_error() explains, and which gp_destroy() frees;
 * it is NULL only when even that could not be allocated (GP_ERR_OUT_OF_MEMORY). */
gp_status gp_create(gp_context **ctx, gp_backend backend);
/* Frees the context and its workspace. NULL is a no-op. Synchronizes its stream. */
void gp_destroy(gp_context *ctx);
gp_backend gp_backend_of(const gp_context *ctx);
/* "cuda" or "cpu". */
const char *gp_backend_name(gp_backend b);
/* What went wrong in the last failed call on this context, in words; "" if nothing. */
const char *gp_last_error(const gp_context *ctx);
/* Sets the cudaStream_t the context launches on (NULL: the default stream). The CPU
 * backend accepts only NULL. */
gp_status gp_set_stream(gp_context *ctx, void *cuda_stream);
/* Waits for everything the context has launched. A no-op on the CPU backend. */
gp_status gp_synchronize(gp_context *ctx);

/* What the context runs on. For the CPU backend name is the processor model (or
 * "CPU"), sm_count is 0 and threads is the OpenMP thread count. */
typedef struct gp_device_info {
  char name[256];
  int cc_major, cc_minor;          /* compute capability; 0 on the CPU */
  int sm_count;                    /* multiprocessors */
  int threads;                     /* CPU threads the CPU backend uses; 0 on CUDA */
  size_t global_mem_bytes;         /* device memory (host memory on the CPU) */
  size_t l2_bytes;                 /* L2 cache size; 0 if unknown */
  double mem_clock_khz;            /* memory clock; 0 if unknown */
  int mem_bus_bits;                /* memory bus width; 0 if unknown */
} gp_device_info;
gp_status gp_get_device_info(gp_context *ctx, gp_device_info *info);

/* ---- dtypes ------------------------------------------------------------------ */
typedef enum gp_dtype { GP_F32, GP_F64, GP_I32, GP_I64, GP_U32, GP_U64 } gp_dtype;
#define GP_DTYPE_COUNT 6
/* Bytes per element: 4 or 8; 0 for a value outside the enum. */
size_t gp_dtype_size(gp_dtype t);
/* "f32", "f64", "i32", "i64", "u32", "u64"; "?" outside the enum. */
const char *gp_dtype_name(gp_dtype t);
/* Parses "f32", "float32", "float", "f64", "double", "i32", "int32", ... ; returns
 * GP_ERR_PARSE for an unknown name. */
gp_status gp_dtype_from_name(const char *name, gp_dtype *t);

/* ---- reduction ---------------------------------------------------------------- */
typedef enum gp_op { GP_SUM, GP_MIN, GP_MAX } gp_op;
typedef enum gp_reduce_algo {
  GP_REDUCE_AUTO,        /* the fastest deterministic path */
  GP_REDUCE_INTERLEAVED, /* seed 000, 4.1: tid % (2*s) == 0 */
  GP_REDUCE_SEQUENTIAL,  /* seed 000, 4.2: tid < s */
  GP_REDUCE_TWO_PHASE,   /* seed 000, 4.3: grid-stride + second launch */
  GP_REDUCE_WARP_ATOMIC  /* seed 003, 6.24: warp shuffles, one atomicAdd per block */
} gp_reduce_algo;
/* "sum", "min", "max"; "interleaved", "sequential", "two-phase", "warp-atomic", "auto". */
const char *gp_op_name(gp_op op);
const char *gp_reduce_algo_name(gp_reduce_algo a);
gp_status gp_op_from_name(const char *name, gp_op *op);
gp_status gp_reduce_algo_from_name(const char *name, gp_reduce_algo *a);
/* The element type gp_reduce writes: the input type, except integer SUM, which
 * widens (I32 -> I64, U32 -> U64). */
gp_dtype gp_reduce_out_type(gp_op op, gp_dtype type);

/* Reduces n elements of `in` with op into one element at *out (of type
 * gp_reduce_out_type(op, type)).
 *  - SUM of n = 0 is 0; MIN and MAX of n = 0 are GP_ERR_INVALID_ARGUMENT.
 *  - Integer SUM wraps modulo 2^64. MIN/MAX of floats propagate NaN (the result is
 *    the canonical quiet NaN if any element is NaN) and order -0 below +0.
 *  - Deterministic: the same input gives the same bits on every run. For GP_REDUCE_AUTO
 *    the summation tree of F32 and F64 SUM is fixed by n alone, so the bits are also
 *    the same for every grid size and on the CPU backend; F32 SUM accumulates in F64.
 *    The named seed algorithms give the same bits on both backends (the CPU backend
 *    follows the kernel's blocks, lanes and order of additions), except
 *    GP_REDUCE_WARP_ATOMIC on floats, whose per-block atomicAdd order varies from run
 *    to run on the GPU (integers stay exact).
 *  - Asynchronous on the context's stream when `in` and `out` are both device memory. */
gp_status gp_reduce(gp_context *ctx, gp_op op, gp_dtype type, const void *in,
                    size_t n, void *out, gp_reduce_algo algo);
/* Phase-1 grid size of GP_REDUCE_TWO_PHASE (blocks of 256 threads). 0 restores the
 * chapter's 64 blocks. Both backends honour it, so they still agree bit for bit. */
gp_status gp_set_two_phase_blocks(gp_context *ctx, unsigned blocks);

/* ---- sorting ------------------------------------------------------------------ */
typedef enum gp_order { GP_ASCENDING, GP_DESCENDING } gp_order;
typedef enum gp_sort_algo {
  GP_SORT_AUTO,        /* the fastest path for the size and type */
  GP_SORT_BITONIC,     /* register/shared-memory bitonic sort, any n */
  GP_SORT_BITONIC_SEED /* seed 003, 6.26: one block per 2*blockDim sublist, then
                          host-driven relaunches for the stages that span blocks */
} gp_sort_algo;
const char *gp_sort_algo_name(gp_sort_algo a);   /* "auto", "bitonic", "bitonic-seed" */
gp_status gp_sort_algo_from_name(const char *name, gp_sort_algo *a);

/* Sorts n keys in place. Floats sort in the total order
 * -NaN < -inf < ... < -0 < +0 < ... < +inf < +NaN (descending reverses it). */
gp_status gp_sort(gp_context *ctx, gp_dtype key_type, void *keys, size_t n,
                  gp_order order, gp_sort_algo algo);
/* As gp_sort, and values[i] (of value_type) moves with keys[i]. */
gp_status gp_sort_pairs(gp_context *ctx, gp_dtype key_type, void *keys,
                        gp_dtype value_type, void *values, size_t n,
                        gp_order order, gp_sort_algo algo);
/* n / segment_size independent sorts of segment_size consecutive keys each.
 * n must be a multiple of segment_size. */
gp_status gp_sort_segments(gp_context *ctx, gp_dtype key_type, void *keys, size_t n,
                           size_t segment_size, gp_order order);

/* ---- integration ---------------------------------------------------------------- */
/* Integral of expr(x) over [a, b] by the trapezoidal rule with n trapezoids, evaluated
 * in F64 (see gp_integrate_ex). */
gp_status gp_integrate(gp_context *ctx, const char *expr, double a, double b,
                       uint64_t n, double *result);

#ifdef __cplusplus
}
#endif
#endif /* GPUPRIMS_H */
