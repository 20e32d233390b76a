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
 *  - Threads: a context is used by one host thread at a time (calls on one context
 *    must not overlap; handing it to another thread between calls is fine). Separate
 *    contexts are fully independent, on one GPU or several, and may be used from
 *    different threads at once: the library keeps no mutable global state except
 *    behind atomics (tests/test_threads.c checks 16 threads bit-exact against one).
 *    A CUDA context belongs to the device that was current (cudaSetDevice) on the
 *    thread that created it; a thread that uses it must have that device current.
 *    The functions that take no context (names, gp_version, gp_dtype_size, ...) are
 *    safe from any thread.
 */
#ifndef GPUPRIMS_H
#define GPUPRIMS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The version: these three lines are its one source (CMakeLists.txt reads them for the
 * project, the soname, the CMake package and pkg-config). GP_VERSION_NUMBER is
 * MAJOR * 10000 + MINOR * 100 + PATCH: the header a program was compiled against. */
#define GP_VERSION_MAJOR 0
#define GP_VERSION_MINOR 1
#define GP_VERSION_PATCH 0
#define GP_VERSION_NUMBER (GP_VERSION_MAJOR * 10000 + GP_VERSION_MINOR * 100 + GP_VERSION_PATCH)
/* The library's version and the backends compiled in: "0.1.0 (cuda + cpu)" or
 * "0.1.0 (cpu only: built without CUDA)". */
const char *gp_version(void);
/* The library's GP_VERSION_NUMBER, for a run-time check that the library loaded is the
 * one compiled against: gp_version_number() / 100 == GP_VERSION_NUMBER / 100 means the
 * same MAJOR.MINOR, which is what the soname and the CMake package promise. */
int gp_version_number(void);

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
/* Frees the context and its workspace. NULL is a no-op. Synchronizes its stream. A
 * context keeps its workspace between calls: GPU memory grown to its largest call's
 * need, and, for sorts on the CPU backend, host scratch of up to 1 GiB (about two
 * arrays of the largest sort). */
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

/* Page-locked ("pinned") host memory of at least `bytes`, which the GPU reads and
 * writes at the link's full speed: arrays passed from it skip the library's staging
 * copy. Memory from cudaMallocHost or cudaHostRegister is recognized the same way.
 * On the CPU backend this is ordinary aligned memory. *p is NULL on failure. Pinned
 * memory is a scarce system resource: allocate once, reuse, free with gp_host_free. */
gp_status gp_host_alloc(gp_context *ctx, void **p, size_t bytes);
/* Frees memory from gp_host_alloc of the same context's backend; NULL is a no-op. */
gp_status gp_host_free(gp_context *ctx, void *p);

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
  int arch;                        /* major * 10 + minor whose kernel paths are taken: the
                                      device's, or lower when GPUPRIMS_FORCE_ARCH says so
                                      (e.g. 80 makes an sm_90 GPU skip its thread-block
                                      clusters, to test the fallbacks); 0 on the CPU */
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
  GP_REDUCE_AUTO,        /* the fastest deterministic path; float SUM correctly rounded */
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
 *  - GP_REDUCE_AUTO's F32 and F64 SUM are correctly rounded: the exact sum of the
 *    inputs rounded once to the type (to nearest, ties to even). Any NaN gives the
 *    canonical NaN, +inf and -inf together give NaN, one kind of inf gives that inf,
 *    an exact sum beyond the type's range gives inf of its sign, and an exact zero is
 *    -0 only when every input is -0 (as IEEE addition gives). So the bits do not
 *    depend on order, grid, GPU or backend (permuting the input changes nothing).
 *    Cost: memory speed for data of ordinary range; inputs whose bits reach far below
 *    the running sum's (e.g. 1e300 and 1e-300 together) take a slower exact path.
 *  - Deterministic: the same input gives the same bits on every run. AUTO's integer
 *    SUM is exact (modulo 2^64) and MIN/MAX do not depend on order. The named seed algorithms give the same bits on both backends (the CPU backend
 *    follows the kernel's blocks, lanes and order of additions), except
 *    GP_REDUCE_WARP_ATOMIC on floats, whose per-block atomicAdd order varies from run
 *    to run on the GPU (integers stay exact).
 *  - Asynchronous on the context's stream when `in` and `out` are both device memory. */
gp_status gp_reduce(gp_context *ctx, gp_op op, gp_dtype type, const void *in,
                    size_t n, void *out, gp_reduce_algo algo);
/* gp_reduce for `in` and `out` the caller knows to be device (or managed) memory: no
 * pointer query (cudaPointerGetAttributes, ~0.5 us of host time each, two per
 * gp_reduce), asynchronous on the context's stream, as cub::DeviceReduce is. A host
 * pointer there is undefined (a GPU fault) unless GPUPRIMS_DEBUG_SYNC=1, which checks
 * both (GP_ERR_INVALID_ARGUMENT). On the CPU backend this is gp_reduce. */
gp_status gp_reduce_device(gp_context *ctx, gp_op op, gp_dtype type, const void *in,
                           size_t n, void *out, gp_reduce_algo algo);
/* Phase-1 grid size of GP_REDUCE_TWO_PHASE (blocks of 256 threads). 0 restores the
 * chapter's 64 blocks. Both backends honour it, so they still agree bit for bit. */
gp_status gp_set_two_phase_blocks(gp_context *ctx, unsigned blocks);

/* Arg-min (op = GP_MIN) or arg-max (GP_MAX) of n >= 1 elements of `in`: *index_out gets
 * the index of the first minimum (maximum) and *value_out (one element of `type`) its
 * value; either pointer may be NULL. Ties go to the lowest index. Floats follow NumPy's
 * argmin/argmax: the first NaN wins (its value comes back as the canonical quiet NaN)
 * and -0 equals +0 (the first of them wins). Deterministic (the answer does not depend
 * on the grid or backend); one pass over the input. Asynchronous on the context's
 * stream when `in` and both outputs are device memory. */
gp_status gp_argreduce(gp_context *ctx, gp_op op, gp_dtype type, const void *in, size_t n,
                       void *value_out, uint64_t *index_out);
/* gp_argreduce of each segment: value_out[s] (nseg elements of `type`) and index_out[s]
 * (the position within the segment) get what gp_argreduce of segment s alone gives;
 * either may be NULL, not both. gp_argreduce_rows: nrows consecutive rows of row_len >= 1
 * elements (a row-major 2-D array); gp_argreduce_segments_offsets: segment s is
 * in[offsets[s] .. offsets[s+1]) (nseg + 1 uint64 offsets, increasing: an empty segment
 * has no answer and is an error). nrows / nseg = 0 does nothing. Both backends; on CUDA,
 * `in`, the offsets and the outputs may be host or device memory. The offsets are read
 * on the host (to balance long and short segments across the GPU): device offsets are
 * copied there first, which waits for the work before the call on the context's
 * stream. Otherwise asynchronous on that stream when `in` and both outputs are device
 * memory. */
gp_status gp_argreduce_rows(gp_context *ctx, gp_op op, gp_dtype type, const void *in,
                            size_t nrows, size_t row_len, void *value_out, uint64_t *index_out);
gp_status gp_argreduce_segments_offsets(gp_context *ctx, gp_op op, gp_dtype type,
                                        const void *in, const uint64_t *offsets, size_t nseg,
                                        void *value_out, uint64_t *index_out);

/* One reduction per segment: out[s] (of type gp_reduce_out_type(op, type)) gets the
 * bits gp_reduce(ctx, op, type, segment s, len, &out[s], GP_REDUCE_AUTO) would give:
 * float SUM correctly rounded, MIN/MAX and integer SUM as gp_reduce. An empty segment
 * gives 0 for SUM and the identity for MIN/MAX (+inf / -inf; the type's max / min).
 * gp_reduce_rows: nrows consecutive rows of row_len elements (a row-major 2-D array).
 * gp_reduce_segments_offsets: segment s is in[offsets[s] .. offsets[s+1]) (nseg + 1
 * uint64 offsets, not decreasing; `in` holds offsets[nseg] elements). Host offsets are
 * checked in full. Device offsets with `in` in device memory are read by the GPU alone:
 * not checked (a decreasing pair reads nothing, and the results are then unspecified),
 * and the call does not wait for the GPU; with `in` in host memory the host reads their
 * ends (offsets[0] <= offsets[nseg]) to copy the input. On the GPU a segment gets 1 to 32
 * lanes by its length, and segments of at least a span (8 KB of elements, more past
 * 2^25 bytes) are cut into spans reduced by many warps at once, so tiny and huge
 * segments in one call are balanced; rows too long to fill the GPU are split into
 * chunks, and one huge row is one device-wide reduction. Asynchronous on the context's
 * stream when every array is device memory. */
gp_status gp_reduce_rows(gp_context *ctx, gp_op op, gp_dtype type, const void *in, size_t nrows,
                         size_t row_len, void *out);
gp_status gp_reduce_segments_offsets(gp_context *ctx, gp_op op, gp_dtype type, const void *in,
                                     const uint64_t *offsets, size_t nseg, void *out);

/* ---- sorting ------------------------------------------------------------------ */
typedef enum gp_order { GP_ASCENDING, GP_DESCENDING } gp_order;
typedef enum gp_sort_algo {
  GP_SORT_AUTO,         /* the fastest path for the size and type (see gp_sort) */
  GP_SORT_BITONIC,      /* register/shared-memory bitonic sort, any n; pairs not stable */
  GP_SORT_BITONIC_SEED, /* seed 003, 6.26: one block per 2*blockDim sublist, then
                           host-driven relaunches for the stages that span blocks */
  GP_SORT_RADIX         /* stable LSD radix sort, 8-bit digits (one-sweep passes with
                           decoupled look-back; one block when n fits one tile) */
} gp_sort_algo;
/* "auto", "bitonic", "bitonic-seed", "radix" */
const char *gp_sort_algo_name(gp_sort_algo a);
gp_status gp_sort_algo_from_name(const char *name, gp_sort_algo *a);

/* Sorts n keys in place. Floats sort in the total order
 * -NaN < -inf < ... < -0 < +0 < ... < +inf < +NaN (descending reverses it).
 *  - GP_SORT_AUTO on the GPU: on sm_90+ up to 1024 keys a rank sort in one thread-block
 *    cluster (stable, no workspace) and 1025 .. 3072 a rank sort on the whole GPU (one
 *    cooperative launch; n keys of workspace where the GPU cannot hold its grid at once),
 *    bitonic up to 2^16 keys (2^19 for 8-byte keys), GP_SORT_RADIX above
 *    (docs/perf/sort.md). The CPU backend always runs its stable radix sort (except
 *    GP_SORT_BITONIC_SEED).
 *  - GP_SORT_RADIX above 2048 keys uses device
 *    workspace of n keys (plus n values for pairs) and n / 3 bytes of look-back state
 *    (4-byte keys; n / 2.25 for 8-byte keys), plus n keys (and values) more when they
 *    are in host memory and staged; when the GPU cannot hold it the call fails with
 *    GP_ERR_OUT_OF_MEMORY, saying how many bytes, and the keys are untouched.
 *  - Deterministic; asynchronous on the context's stream for device memory, synchronous
 *    (staged through the workspace) for host memory. */
gp_status gp_sort(gp_context *ctx, gp_dtype key_type, void *keys, size_t n,
                  gp_order order, gp_sort_algo algo);
/* As gp_sort, but the n keys of `in` are written sorted to `out` and `in` is left as it
 * is (NumPy's np.sort(a): a sorted copy). in and out must not overlap, except out == in,
 * which is gp_sort. Each may be in host or device memory. GPU, both arrays on the GPU,
 * sm_90+: GP_SORT_AUTO's whole-GPU rank sort (up to 4096 keys) and its one-cluster bitonic
 * sort (up to 2^16 keys; also GP_SORT_BITONIC) read in and write out in one launch (no
 * workspace, no copy). Both in host memory: in is staged to the GPU, sorted in the
 * workspace and staged out to out (no host copy first). Elsewhere the keys are copied to
 * out on the context's stream and sorted there as gp_sort does. Same bits, workspace and
 * waiting rules as gp_sort; host or managed memory on either side makes the call
 * synchronous. */
gp_status gp_sort_copy(gp_context *ctx, gp_dtype key_type, const void *in, void *out,
                       size_t n, gp_order order, gp_sort_algo algo);
/* As gp_sort, and values[i] (of value_type) moves with keys[i]. Stable on GP_SORT_AUTO
 * and GP_SORT_RADIX (equal keys keep their values' input order, as numpy's
 * argsort(kind='stable') and torch.sort(stable=True)): AUTO sorts pairs by radix on the
 * GPU (up to 4096 keys on sm_90+ a stable rank sort: in one cluster up to 1024, on the
 * whole GPU above, as gp_sort; elsewhere 4-byte
 * keys from 2049 to 4096: the bitonic sort of (key, index) composites, whose
 * order is the stable one, with n * (8 + value size) bytes of workspace) and by the
 * stable radix sort on the CPU, and both backends give the same bits. GP_SORT_BITONIC
 * and GP_SORT_BITONIC_SEED are not stable on the GPU. Radix blocks that need more
 * shared memory than the GPU gives a block (pairs with 8-byte values of 2049 keys up to
 * one tile on sm_86 / sm_89 / sm_120) are not used there: those sizes take the
 * device-wide radix sort. */
gp_status gp_sort_pairs(gp_context *ctx, gp_dtype key_type, void *keys,
                        gp_dtype value_type, void *values, size_t n,
                        gp_order order, gp_sort_algo algo);
/* n / segment_size independent sorts of segment_size consecutive keys each.
 * n must be a multiple of segment_size. */
gp_status gp_sort_segments(gp_context *ctx, gp_dtype key_type, void *keys, size_t n,
                           size_t segment_size, gp_order order);

/* The stable permutation that sorts the n keys: indices[r] (index_type GP_U32 or
 * GP_U64) is the input position of the key of rank r; equal keys keep their input
 * order (numpy.argsort(kind='stable')). The keys are not modified. GP_U32 indices need
 * n <= 2^32. GPU: a radix sort of (key, position) pairs whose last pass writes only the
 * indices (up to 4096 keys on sm_90+ a rank sort, no workspace: in one cluster up to 512,
 * on the whole GPU above; elsewhere
 * 4-byte keys from 2049 to 4096: the bitonic sort of (key, index) composites,
 * 8n bytes of workspace); workspace about 2n keys + n indices (none up to one tile,
 * outside the composites' sizes); host memory is
 * staged (synchronous), device memory is asynchronous. Deterministic; the CPU backend
 * gives the same indices. */
gp_status gp_argsort(gp_context *ctx, gp_dtype key_type, const void *keys,
                     gp_dtype index_type, void *indices, size_t n, gp_order order);

/* nseg independent stable sorts of segments of any sizes: segment i is
 * keys[offsets[i] .. offsets[i+1]) (half-open; empty segments allowed), so keys holds
 * n = offsets[nseg] elements; offsets[0] may be above 0 and keys below it (and no
 * others) are left as they are. offsets: nseg + 1 non-decreasing uint64_t, in host or
 * device memory; any decrease fails with GP_ERR_INVALID_ARGUMENT naming the index,
 * before any data is touched. nseg = 0 does nothing (offsets may then be NULL).
 * The offsets are read first to validate and plan: in device memory by a kernel whose
 * summary (a few words, and the bounds of the segments above one tile) is copied back,
 * which synchronizes the context's stream; host offsets are read on the host and
 * uploaded (the call then waits before returning). GPU: segments of up to 32
 * keys take four lanes each, up to 256 a 64-thread block each, up to 2048 a 256-thread
 * block, up to 8192 4-byte / 4096 8-byte keys a 1024-thread block, up to one tile
 * (10752 4-byte / 6144 8-byte keys) a 384-thread block each, larger ones the device-wide radix sort
 * one after another (workspace sized for the largest) or, with 4-byte keys and 16 or
 * more of them, all in one sort of 64-bit (segment, key) composites (workspace about
 * n * (16 + value size) bytes). Deterministic; same bits as the CPU backend. */
gp_status gp_sort_segments_offsets(gp_context *ctx, gp_dtype key_type, void *keys,
                                   const uint64_t *offsets, size_t nseg, gp_order order);
/* As gp_sort_segments_offsets, values (of value_type) moving with their keys, stable. */
gp_status gp_sort_pairs_segments_offsets(gp_context *ctx, gp_dtype key_type, void *keys,
                                         gp_dtype value_type, void *values,
                                         const uint64_t *offsets, size_t nseg,
                                         gp_order order);

/* ==== many GPUs through NCCL (src/api/dist.c, src/dist/) ===============================
 * An array spread over several GPUs ("ranks"), each holding one shard in its device
 * memory, reduced or sorted as one array: the concatenation of the shards in rank order.
 *
 * Two ways to get a handle:
 *  - gp_dist_create_local: one process drives GPUs 0 .. ngpus-1 itself (ncclCommInitAll),
 *    with a context and a stream per GPU that the handle owns (blocking: a call starts
 *    after the caller's work on the legacy default stream, e.g. a cudaMemcpy). Calls then
 *    take one shard per GPU: arrays of ngpus pointers and counts, entry i on GPU i.
 *  - gp_dist_create_comm: one process (or thread) per GPU, across hosts as NCCL allows:
 *    the caller's launcher or MPI bootstraps an ncclComm_t and passes it here with a CUDA
 *    context on the comm's GPU. Calls then take arrays of one entry: this rank's shard.
 *    Every rank of the communicator must make the same calls in the same order.
 *  - gp_dist_create_file: one process per GPU like gp_dist_create_comm, but the library
 *    makes the communicator itself from the launcher's RANK / WORLD_SIZE / LOCAL_RANK and
 *    a file all ranks see (how `gpuprims sort/reduce --dist-file` run under torchrun).
 * gp_dist_local_count(d) says how many entries the arrays have (ngpus, or 1).
 *
 * NCCL is optional at build and at run time: the library is never linked against it;
 * the first gp_dist_create_* loads libnccl.so.2 with dlopen (or the file named by
 * $GPUPRIMS_NCCL_LIB), so a machine without NCCL runs every other call. In a process
 * that already has NCCL loaded (the caller's ncclComm_t), the soname resolves to that
 * same library. Without NCCL at build time (GP_WITH_NCCL=OFF, no nccl.h, or no CUDA) or
 * at run time, gp_dist_create_* return GP_ERR_UNSUPPORTED saying why.
 *
 * Errors: every rank checks its arguments, then the ranks agree on the outcome (a small
 * all-gather of each rank's status, count and call) before any data moves between them,
 * so a bad argument on one rank, or ranks making different calls, make every rank fail
 * with a message naming the rank that failed, and none hangs.
 * While waiting for NCCL the library polls ncclCommGetAsyncError; an asynchronous NCCL
 * error, or no progress for $GPUPRIMS_DIST_TIMEOUT seconds (unset or 0: wait for ever),
 * aborts the communicator (ncclCommAbort) and fails with GP_ERR_CUDA; the handle is then
 * broken (every later call fails) and must only be destroyed; a caller-provided comm is
 * gone after an abort (do not ncclCommDestroy it). A hang inside NCCL's own connection
 * setup with a dead peer is not covered.
 * Shards must be device memory of the rank's GPU (GP_ERR_INVALID_ARGUMENT otherwise).
 * The calls synchronize the ranks' streams and return when the result is complete. A
 * handle is used by one host thread at a time. */
typedef struct gp_dist gp_dist;

/* One process, GPUs 0 .. ngpus-1 (ngpus <= 0: every visible GPU; 1 works too). On
 * failure *d is still a handle whose gp_dist_last_error explains, for gp_dist_destroy;
 * NULL only when even that could not be allocated. */
gp_status gp_dist_create_local(gp_dist **d, int ngpus);
/* One rank per process: nccl_comm is the caller's ncclComm_t, ctx a CUDA context created
 * on the comm's GPU and used on the context's stream. Neither is owned: the caller
 * destroys them after gp_dist_destroy. Local (no communication): a rank where it fails
 * must not make gp_dist calls, and the caller must tell the other ranks (their calls
 * would wait for it, up to $GPUPRIMS_DIST_TIMEOUT). Failure as gp_dist_create_local. */
gp_status gp_dist_create_comm(gp_dist **d, void *nccl_comm, gp_context *ctx);
/* One rank per process without touching NCCL: this process is rank `rank` of `nranks`
 * and drives GPU `device`; a value < 0 is read from $RANK, $WORLD_SIZE or $LOCAL_RANK
 * (what torchrun and most launchers set). The ranks meet through `id_path`, a file name
 * new to this run on a file system they all see: rank 0 writes NCCL's unique id there
 * (whole, then renamed into place) and removes it once every rank has joined; the
 * others wait for it, up to $GPUPRIMS_DIST_TIMEOUT seconds (unset or 0: 300). The
 * handle owns its communicator, a context on `device` (gp_dist_context(d, 0)) and that
 * context's stream. Failure as gp_dist_create_local; a rank that fails before joining
 * leaves the others waiting for it until the timeout. */
gp_status gp_dist_create_file(gp_dist **d, const char *id_path, int rank, int nranks,
                              int device);
/* Frees the handle (and, for the local form, its communicators, contexts and streams).
 * NULL is a no-op. */
void gp_dist_destroy(gp_dist *d);
/* Entries in the per-call arrays: ngpus (local form) or 1 (comm form). */
int gp_dist_local_count(const gp_dist *d);
/* Ranks in the communicator, and the rank of local entry 0. */
int gp_dist_size(const gp_dist *d);
int gp_dist_rank(const gp_dist *d);
/* The context of local entry i (0 <= i < gp_dist_local_count), for allocating and
 * copying shards (its device is GPU i in the local form); NULL outside the range. */
gp_context *gp_dist_context(gp_dist *d, int i);
/* What went wrong in the last failed call on this handle, in words; "" if nothing. */
const char *gp_dist_last_error(const gp_dist *d);

/* Reduces the whole array: in[i] holds n[i] elements of `type` (device memory of local
 * entry i's GPU), and *out (host memory, one element of gp_reduce_out_type(op, type))
 * gets the reduction of all shards of all ranks, on every rank. Same rules as gp_reduce
 * with GP_REDUCE_AUTO, and the same bits as gp_reduce of the concatenated array on one
 * GPU (and on the CPU backend) for every op and type, for any number of ranks and any
 * sharding: integer SUM wraps mod 2^64 (associative), MIN/MAX follow the NaN and -0
 * rules (associative), and F32/F64 SUM is the exact sum rounded once: each rank adds its
 * shard into a fixed-point superaccumulator, the ranks all-gather them (576 bytes per
 * rank, carrying the agreement too: one all-gather and one wait per call) and add them
 * as integers, and the total is rounded once. No shard sizes or alignment are asked of
 * the caller. Shards may be empty (n[i] = 0); MIN/MAX of an empty whole array are
 * GP_ERR_INVALID_ARGUMENT on every rank. Synchronous. */
gp_status gp_dist_reduce(gp_dist *d, gp_op op, gp_dtype type, const void *const *in,
                         const size_t *n, void *out);

/* Sorts the whole array in place, keys[i] holding n[i] keys (device memory of local
 * entry i's GPU): afterwards every shard keeps its count and holds its slice of the
 * sorted concatenation (rank r: positions n_0 + .. + n_{r-1} onwards). So the result is
 * balanced exactly as the input was, whatever the keys (all equal, sorted, reversed,
 * duplicates, empty shards), and no GPU ever receives more than it gave. The bits equal
 * gp_sort of the concatenated array on one GPU, cut at the same counts. Order and float
 * total order as gp_sort. Algorithm: a local sort (gp_sort, GP_SORT_AUTO), exact
 * splitters found by a radix search over the key bits (4 rounds of one all-reduce of
 * 256 counts per boundary for 4-byte keys, 8 for 8-byte keys; equal keys are split by
 * (key, rank, position), so ties cannot unbalance), the counts all-gathered, the buckets
 * exchanged with grouped ncclSend/ncclRecv, and the p received sorted runs merged
 * (merge path, ceil(log2 p) passes). Device memory per key beyond the keys themselves:
 * the local sort's workspace (see gp_sort: n keys + n/3 bytes for 4-byte radix), which
 * the receive buffer and the merge then reuse: 2 keys + n/3 bytes per key in all (8.3
 * bytes per u32 key, up to 9.4 with the workspace's growth headroom; docs/perf/multigpu.md). Synchronous. A failure that a rank meets after its local sort
 * (out of memory for the exchange) leaves every shard sorted locally: a permutation of
 * its input. */
gp_status gp_dist_sort(gp_dist *d, gp_dtype key_type, void *const *keys, const size_t *n,
                       gp_order order);
/* As gp_dist_sort, values[i] (of value_type, n[i] each) moving with their keys. Stable
 * over the concatenation: equal keys keep the order (rank, position), so the bits equal
 * gp_sort_pairs (GP_SORT_AUTO, stable) of the concatenated arrays on one GPU. Memory: 2
 * keys + 2 values + the radix look-back state per pair. */
gp_status gp_dist_sort_pairs(gp_dist *d, gp_dtype key_type, void *const *keys,
                             gp_dtype value_type, void *const *values, const size_t *n,
                             gp_order order);
/* ==== end of many GPUs ================================================================ */

/* The k largest (order = GP_DESCENDING) or smallest (GP_ASCENDING) of n elements,
 * 1 <= k <= n, sorted in that order, ties broken by the lower index (deterministic).
 * Floats follow the sort's total order (-NaN < -inf < ... < -0 < +0 < ... < +inf < +NaN).
 * values gets k elements of `type` (their bits as in `in`), indices k uint64 positions;
 * either may be NULL. Synchronizes. On CUDA, k <= n / 16 takes a radix select (one
 * read of the input for n >= 2^20 and small k, where a sample's threshold holds the
 * answer, else two or three; the context workspace grows to about n * (element size +
 * 8) * 9 / 64 bytes plus up to about 100 MB and stays held), larger k a sort of all n
 * (key, index) pairs, about n * (element size + 16) bytes of device memory. */
gp_status gp_topk(gp_context *ctx, gp_dtype type, const void *in, size_t n, size_t k,
                  gp_order order, void *values, uint64_t *indices);
/* gp_topk along rows: in holds rows x cols elements (row-major); for each row, its k
 * (1 <= k <= cols) largest or smallest exactly as gp_topk of that row alone gives them
 * (sorted, ties to the lower index). values gets rows x k elements, indices rows x k
 * positions within the row (0 .. cols - 1); either may be NULL. rows = 0 does nothing.
 * CUDA: k <= 128 and cols < 2^31, one read of each row by 1-4 warps that keep its k
 * best (device memory: none beyond the outputs when they are in device memory;
 * asynchronous on the context's stream when `in` and the outputs given are device
 * memory, else it synchronizes); larger k, every row's (key, position) sorted as
 * segments, about rows * cols * (element size + 16) bytes of device memory, and it
 * synchronizes. CPU: each row scanned once by one thread, keeping its k best. Both
 * backends give the same bits. */
gp_status gp_topk_rows(gp_context *ctx, gp_dtype type, const void *in, size_t rows, size_t cols,
                       size_t k, gp_order order, void *values, uint64_t *indices);

/* ---- integration ---------------------------------------------------------------- */
/* Integral of expr(x) over [a, b] by the trapezoidal rule with n trapezoids, evaluated
 * in F64 (see gp_integrate_ex). */
gp_status gp_integrate(gp_context *ctx, const char *expr, double a, double b,
                       uint64_t n, double *result);

/* ---- arrays and files (src/io/) ---------------------------------------------------- */
typedef enum gp_file_format {
  GP_FILE_AUTO, /* by extension: .npy -> NPY, .txt/.csv -> TEXT, anything else -> RAW */
  GP_FILE_NPY,  /* NumPy .npy, versions 1.0, 2.0, 3.0; little-endian, C order */
  GP_FILE_RAW,  /* the elements' bytes, native (little-endian) order, no header */
  GP_FILE_TEXT  /* numbers separated by spaces, newlines or commas (see below) */
} gp_file_format;
/* The text grammar (what gp_array_load reads from a GP_FILE_TEXT file):
 *  - ASCII or UTF-8; a UTF-8 byte-order mark at the start is skipped. '#' starts a
 *    comment to the end of the line; blank lines are ignored.
 *  - Numbers are separated by spaces, tabs, newlines and/or single commas, so a .csv of
 *    numbers reads row by row ("1,2,3"); an empty field ("1,,2", a trailing ',') is an
 *    error.
 *  - Integer dtypes: an optional sign, then decimal digits or 0x and hex digits
 *    ("-42", "0x10"). "-0" is 0 for u32/u64; any other negative value is refused there.
 *  - F32/F64: an optional sign, then decimal digits with an optional '.' and exponent
 *    ("1.5e-3"), a C99 hex float ("0x1.8p3"), or inf, infinity, nan in any case (no
 *    "nan(...)" payloads). A value beyond the type's range is an error; so is a nonzero
 *    value that rounds to 0 ("1e-400" in f64); a subnormal result is kept.
 *  - An error names the file, the line, the byte offset of the token in the file and
 *    the token, with bytes outside printable ASCII shown as \xNN. */
/* A flat array in host memory (malloc'd by gp_array_load; free with gp_array_free). */
typedef struct gp_array {
  gp_dtype dtype;
  size_t n;   /* elements (a .npy of any shape: the product of its dimensions) */
  void *data; /* n * gp_dtype_size(dtype) bytes; may be NULL when n = 0 */
} gp_array;
/* "auto", "npy", "raw", "text"; and back (GP_ERR_PARSE for an unknown name). */
const char *gp_file_format_name(gp_file_format f);
gp_status gp_file_format_from_name(const char *name, gp_file_format *f);

/* Reads a whole file into *out (host memory). raw_dtype is the element type for RAW
 * (required) and TEXT (pass (gp_dtype)-1 for the default, F64) files; a .npy carries its
 * own ('<f4' '<f8' '<i4' '<i8' '<u4' '<u8'; '|' or '=' byte order accepted, big-endian
 * and Fortran order refused; a descr without byte order, a shape that is not a tuple or
 * whose nonzero dimensions overflow 63 bits are refused, as NumPy refuses them) and
 * raw_dtype is ignored for it. Text integers are parsed exactly (no round trip through
 * double). Files over 4 GiB work. A pipe (e.g. /dev/stdin) is checked as a file is: a
 * .npy stream with bytes after its array is GP_ERR_FORMAT.
 * Errors: GP_ERR_IO (cannot open or read: the OS's reason), GP_ERR_FORMAT (a malformed
 * or truncated .npy, a raw size not a multiple of the element size), GP_ERR_PARSE (a text
 * line that is not a number of the type: "file.txt line 7: 'abc' is not a number"),
 * GP_ERR_UNSUPPORTED (a .npy dtype or order gpuprims does not take). Each message names
 * the file. On failure *out is left as it was. Synchronous, host only, on either backend
 * (ctx only carries the error message). A Fortran-order .npy is accepted only when at
 * most one dimension exceeds 1 (then its bytes are the same as C order). */
gp_status gp_array_load(gp_context *ctx, const char *path, gp_file_format fmt,
                        gp_dtype raw_dtype, gp_array *out);
/* Writes a (host memory) to path in fmt (AUTO: by extension as above), as a 1-d array.
 * NPY writes version 1.0, or 2.0 when the header would not fit; TEXT writes integers
 * exactly and floats with %.9g (F32) / %.17g (F64), which read back to the same bits.
 * Nothing is lost whatever fails: a regular file (or a new path) is written to a
 * temporary file in the same folder, fsync'd, and renamed over the target only when
 * complete, keeping the old file's mode; on failure the temporary file is removed and
 * the old file is as it was. A symlink is followed and its final target replaced (the
 * link stays). Anything else (a device, a pipe, /dev/stdout and other /dev/ and /proc/
 * paths) is written in place and never removed. */
gp_status gp_array_save(gp_context *ctx, const char *path, gp_file_format fmt,
                        const gp_array *a);
/* Frees a->data and sets a to {dtype, 0, NULL}. NULL is a no-op. */
void gp_array_free(gp_array *a);

/* What backs an array from gp_array_map: release it with gp_array_unmap. */
typedef struct gp_array_mapping gp_array_mapping;
/* As gp_array_load (same formats, checks and errors), for arrays that are only read: a
 * regular .npy or raw file is mapped into memory (mmap, private, read-only) instead of
 * copied, so data already in the page cache are shared rather than copied and faulted
 * into fresh pages (docs/perf/host.md). Text files, pipes and files the system cannot
 * map are read as gp_array_load reads them. Either way out->data is READ-ONLY (writing to
 * a mapped page faults) and stays valid until gp_array_unmap(*mapping), which releases
 * it; never pass out to gp_array_free or free(). The file must not be truncated while
 * mapped (a read past its new end raises SIGBUS); replacing it by rename (as
 * gp_array_save does) is safe: the mapping keeps the old contents. On failure *out and
 * *mapping are left as they were. */
gp_status gp_array_map(gp_context *ctx, const char *path, gp_file_format fmt,
                       gp_dtype raw_dtype, gp_array *out, gp_array_mapping **mapping);
/* Unmaps or frees what gp_array_map returned. NULL is a no-op. */
void gp_array_unmap(gp_array_mapping *mapping);

/* ---- memory bandwidth (src/core/bandwidth.c) ---------------------------------------- */
/* Measures the device's peak bandwidth, in GB/s (1e9 bytes/s):
 *  read_gbs: a read-only kernel over a buffer several times the L2, 16-byte loads,
 *            timed with CUDA events, median of several runs;
 *  copy_gbs: cudaMemcpy device to device, counting the bytes read plus written.
 * Either pointer may be NULL. On the CPU backend both figures come from a host memory
 * read loop and memcpy timed with a wall clock. Takes ~0.1-1 s; allocates and frees
 * its buffer (256 MiB or more on a GPU; 1/8 of host memory at most); synchronizes. */
gp_status gp_measure_bandwidth(gp_context *ctx, double *read_gbs, double *copy_gbs);

/* ==== cost models (host only) ==========================================================
 * The chapters' cost models, computed on the host from one description per algorithm
 * of which lanes are active at each statement and which shared-memory words they
 * touch (src/model/desc.c): warp divergence as issue passes (seed 000, 4.1-4.2), shared
 * memory bank conflicts (seed 003, 6.23) and work/span of the two-phase design (seed
 * 000, 4.3). No GPU and no backend are needed: any context (CPU or CUDA) works and is
 * used only for error messages. Every function returns GP_ERR_INVALID_ARGUMENT, with
 * gp_last_error naming the value, for a NULL pointer, an unknown algorithm, a size out
 * of range or an output array too small; nothing else can fail. Deterministic. */
typedef enum gp_model_algo {
  GP_MODEL_INTERLEAVED,         /* "interleaved": seed 000 4.1,
                                   if (tid % (2*s) == 0) sdata[tid] += sdata[tid + s] */
  GP_MODEL_INTERLEAVED_STRIDED, /* "interleaved-strided": cuda-samples reduce1, i = 2*s*tid;
                                   if (i < blockDim) sdata[i] += sdata[i + s] */
  GP_MODEL_SEQUENTIAL,          /* "sequential": seed 000 4.2, if (tid < s) ... */
  GP_MODEL_TWO_PHASE,           /* "two-phase": seed 000 4.3, phase-1 block + phase-2 block */
  GP_MODEL_WARP_ATOMIC,         /* "warp-atomic": seed 003 6.24 with shuffles (as the
                                   library's kernel): warp tree, lane 0 stores, warp 0
                                   tree, one atomicAdd per block */
  GP_MODEL_WARP_SHARED          /* "warp-shared": seed 003 Program 6.15 as printed, its
                                   Shared_mem_sum tree in shared memory */
} gp_model_algo;
#define GP_MODEL_ALGO_COUNT 6
/* "interleaved", "interleaved-strided", "sequential", "two-phase", "warp-atomic",
 * "warp-shared"; "?" outside the enum. from_name returns GP_ERR_PARSE for others. */
const char *gp_model_algo_name(gp_model_algo a);
gp_status gp_model_algo_from_name(const char *name, gp_model_algo *a);

/* What the models are asked about. Zero fields take the default in brackets. */
typedef struct gp_model_config {
  gp_model_algo algo;
  unsigned block;      /* threads per block: a power of two, 1 .. 1024 (warp-atomic and
                          warp-shared: warp .. warp*warp) */
  unsigned warp;       /* lanes per warp: a power of two, 1 .. 64 [32] */
  unsigned banks;      /* shared-memory banks: a power of two, 1 .. 64 [32] */
  unsigned bank_bytes; /* bytes per bank word: 4 or 8 [4] */
  unsigned elem_bytes; /* bytes per element (the dtype): 4 or 8 [4] */
  unsigned partials;   /* two-phase: partials the phase-2 block reads, 1 .. block
                          [64, or block if smaller: the chapter's NUM_BLOCKS] */
} gp_model_config;

/* Which part of a kernel a statement belongs to. */
typedef enum gp_model_part {
  GP_PART_LOAD,      /* filling shared memory / registers before the tree */
  GP_PART_TREE,      /* a step of the block tree (the chapter's table rows) */
  GP_PART_WARP_TREE, /* a step of a warp tree (shuffle or Shared_mem_sum) */
  GP_PART_HANDOFF,   /* between the warp trees: lane 0 stores, warp 0 loads */
  GP_PART_EPILOGUE   /* after the tree: the block's result leaves */
} gp_model_part;
const char *gp_model_part_name(gp_model_part p); /* "load", "tree", ... */

#define GP_MODEL_MAX_STEPS 64 /* no algorithm has more statements than this */

/* One statement of the kernel, executed once by the block (a tree step, a store). */
typedef struct gp_div_step {
  unsigned kernel;          /* 0: the kernel (phase 1); 1: the phase-2 kernel */
  gp_model_part part;
  long step_s;              /* the chapter's step_s (s, or the shuffle offset); -1: none */
  int in_table;             /* 1: a row of the chapter's per-step table */
  char what[64];            /* the statement, e.g. "sdata[tid] += sdata[tid + s]" */
  unsigned active_threads;  /* threads that execute it */
  unsigned active_warps;    /* warps with at least one active lane */
  unsigned mixed_warps;     /* warps with active and inactive lanes: divergent */
  unsigned issue_passes;    /* per warp: 0 idle, 1 all active, 2 mixed; summed */
} gp_div_step;

typedef struct gp_div_sum {
  unsigned steps;                 /* statements summed */
  unsigned long issue_passes;
  unsigned long active_threads;   /* lane-executions */
  unsigned long active_warps;     /* warp-executions: the ideal of 1 pass per active warp */
  unsigned long mixed_warps;      /* divergent warp-executions */
  unsigned max_mixed_per_step;    /* most divergent warps in one statement */
  double lanes_per_issue;         /* active_threads / active_warps: what
                                     smsp__sass_thread_inst_executed / smsp__inst_executed
                                     measures for these statements */
} gp_div_sum;

typedef struct gp_div_total {
  gp_div_sum table;   /* the chapter's table rows (in_table) */
  gp_div_sum kernel;  /* every statement of every kernel, for one block of each */
} gp_div_total;

/* Divergence of every statement of cfg->algo for one block (phase 1 and phase 2 for
 * two-phase). Call with steps = NULL to learn *nsteps; otherwise cap must be at least
 * that many (GP_MODEL_MAX_STEPS always is). total may be NULL. */
gp_status gp_model_divergence(gp_context *ctx, const gp_model_config *cfg,
                              gp_div_step *steps, size_t cap, size_t *nsteps,
                              gp_div_total *total);

/* One shared-memory access of one statement, over all warps of the block. The degree
 * of a warp's access is the largest number of distinct bank words any one bank must
 * serve (the same word twice is a broadcast and counts once): 1 is conflict-free. */
typedef struct gp_bank_access {
  unsigned kernel;
  gp_model_part part;
  long step_s;
  char what[64];             /* the statement */
  char access[32];           /* the access, e.g. "load sdata[tid + s]" */
  int is_store;
  unsigned warps;            /* warps that make the access (>= 1 active lane) */
  unsigned max_degree;       /* worst warp's degree */
  unsigned long wavefronts;  /* sum of degrees over those warps */
  unsigned long ideal;       /* sum over warps of the fewest wavefronts the access could
                                take: ceil(distinct words / banks) (2 for 8-byte lanes) */
  unsigned long conflicts;   /* wavefronts - ideal: what
                                l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_{ld,st}
                                counts */
} gp_bank_access;

typedef struct gp_bank_total {
  unsigned long ld_requests, st_requests;     /* warp-level accesses */
  unsigned long ld_wavefronts, st_wavefronts;
  unsigned long ld_conflicts, st_conflicts;
  unsigned max_degree;
} gp_bank_total;

/* Bank behaviour of every shared-memory access cfg->algo makes, for one block of
 * each kernel. Sizing as gp_model_divergence (cap of 3 * GP_MODEL_MAX_STEPS is always
 * enough). total may be NULL. */
gp_status gp_model_banks(gp_context *ctx, const gp_model_config *cfg, gp_bank_access *acc,
                         size_t cap, size_t *nacc, gp_bank_total *total);

/* A plain strided access: every thread of the block loads a[tid * stride] (cfg->algo
 * is ignored). *out describes the whole block; degree_warp0 gets warp 0's degree.
 * stride: 0 (every lane the same word: a broadcast) .. 2^20. */
gp_status gp_model_bank_stride(gp_context *ctx, const gp_model_config *cfg,
                               unsigned long stride, gp_bank_access *out,
                               unsigned *degree_warp0);

/* ---- work and span of the two-phase design (seed 000, 4.3) ---- */
typedef enum gp_span_design {
  GP_SPAN_CHAPTER,     /* phase 2 is one block big enough for every partial (the
                          chapter's formula log2 T + 1 + log2 B) */
  GP_SPAN_MULTI_LEVEL, /* the seed's phase-2 kernel, relaunched over T-thread blocks
                          until one value is left (phase 2a, 2b, ...) */
  GP_SPAN_LIBRARY,     /* GP_REDUCE_TWO_PHASE: phase 2 is one block of phase2_block
                          threads whose grid-stride loop reads every partial */
  GP_SPAN_SEED         /* the seed's reduce_phase2 exactly as written: one block of
                          phase2_block threads reading partials[tid]; with more partials
                          than threads the rest are never read (stage.unread > 0) */
} gp_span_design;
#define GP_SPAN_DESIGN_COUNT 4
/* "chapter", "multi-level", "library", "seed"; "?" outside the enum. */
const char *gp_span_design_name(gp_span_design d);

typedef struct gp_span_config {
  uint64_t n;               /* elements, >= 1 */
  uint64_t blocks;          /* phase-1 blocks, 1 .. 2^20 */
  unsigned block;           /* phase-1 threads per block: a power of two, 1 .. 1024 */
  unsigned phase2_block;    /* phase-2 threads per block (multi-level, library, seed):
                               a power of two, 1 .. 1024 (multi-level: >= 2) [block] */
} gp_span_config;

/* One kernel launch. Levels count additions on the dependency path that combine two
 * real values (the chapter's measure); steps count what the launch executes in order
 * whether or not its operands are padding. */
typedef struct gp_span_stage {
  uint64_t inputs;        /* values this launch reduces */
  uint64_t blocks;        /* blocks launched */
  unsigned threads;       /* threads per block */
  int grid_stride;        /* 1: threads accumulate with a grid-stride loop first */
  uint64_t loop_len;      /* elements the busiest thread reads (loop iterations) */
  uint64_t loop_levels;   /* loop_len - 1: combines on its dependency path */
  unsigned tree_steps;    /* block-tree steps executed: log2 threads */
  unsigned tree_levels;   /* of those, levels that combine two real values */
  uint64_t adds;          /* additions executed by all threads (padding included) */
  uint64_t combines;      /* additions of two real values */
  uint64_t outputs;       /* values written (one per block) */
  uint64_t unread;        /* real inputs (not padding) no thread reads -- the seed's
                             phase 2 as written with more partials than threads: a
                             nonzero count means a wrong sum */
} gp_span_stage;

#define GP_SPAN_MAX_STAGES 24
typedef struct gp_span_result {
  gp_span_design design;
  unsigned nstages;
  gp_span_stage stage[GP_SPAN_MAX_STAGES];
  unsigned launch_boundaries;   /* nstages - 1 */
  uint64_t span_levels;         /* the chapter's span: tree levels + boundaries */
  uint64_t span_levels_loops;   /* the same with the grid-stride loops' levels */
  uint64_t span_steps;          /* executed: loop lengths + tree steps + boundaries */
  uint64_t work_adds;           /* additions executed */
  uint64_t work_combines;       /* additions of two real values: n - 1 when correct */
} gp_span_result;

/* Work and span of the two-phase design for n elements, `blocks` blocks of `block`
 * threads in phase 1, and phase 2 as `design` says. */
gp_status gp_model_span(gp_context *ctx, const gp_span_config *cfg, gp_span_design design,
                        gp_span_result *out);
/* ==== end of cost models ============================================================= */

/* ==== integration: expressions, precision, the seed's stages (src/core/integrate.c) ====
 * EXPR is an expression in x: numbers (12, 0.5, 1e-3), + - * / ^ (right-associative;
 * -x^2 is -(x^2)), unary minus, parentheses, the constants pi and e, and the functions
 * sin cos tan exp log sqrt abs floor ceil (one argument) and pow min max (two). It is
 * parsed into a tree; a syntax error is GP_ERR_PARSE with the column ("unexpected ')'
 * at column 7") and an unknown name is named. On CUDA the tree (never the text) becomes
 * a postfix program that a kernel built into the library interprets, and CUDA source
 * that NVRTC compiles once per expression and precision when that pays (see Costs);
 * on the CPU the postfix program is evaluated over arrays of points.
 *
 * The rule: h = (b - a) / n, T = h * (f(a)/2 + f(x_1) + ... + f(x_{n-1}) + f(b)/2), with
 * x_i = a + i h. b < a gives the negative of the integral over [b, a]; a = b gives 0.
 * n must be 1 .. 2^40 (0 is GP_ERR_INVALID_ARGUMENT); a and b finite. The samples are
 * never stored: each is evaluated, added and dropped.
 *
 * Precision: GP_F64 evaluates x and f in double. GP_F32 evaluates x and f in float,
 * and the 32 consecutive values one thread takes are added in float as a pairwise tree
 * (error ~5 ulp of their sum, the size of f's own rounding); every other addition is
 * in double, so the sums across points accumulate in F64.
 *
 * Deterministic: the order of every addition is fixed by n alone (tiles of 8192 points,
 * at most 1024 blocks, the shuffle-down block tree, a fixed final combine), so a run
 * gives the same bits every time, on every GPU, and the CPU backend adds the same
 * numbers in the same order. Where f uses only + - * / sqrt abs floor ceil min max and
 * powers ^2, both backends give the same bits; sin, exp, log, pow, ... come from glibc
 * on the CPU and from CUDA's libdevice on the GPU and may differ in the last ulp, so
 * the backends then agree to rounding (a relative ~1e-15 in F64, ~1e-6 in F32).
 *
 * A sum that is not finite (f is infinite or undefined at a sample point, e.g. 1/x with
 * x = 0 a node, or log of a negative number) is GP_ERR_INVALID_ARGUMENT with a message
 * saying so, and *result is left untouched, when result is host memory. `result` may
 * be device memory on the CUDA backend: the call is then asynchronous on the context's
 * stream (no host synchronization, no allocation after the first call) and a
 * non-finite value is written as it is, unchecked.
 * Costs: a call is one kernel launch, plus the wait for a host result. On a CUDA
 * context a new expression and precision runs at once in the interpreted kernel (no
 * compile; f's operations are the compiled kernel's, so the bits are the same), unless
 * the on-disk kernel cache holds its compiled kernel (loaded in well under a ms). The
 * interpreter spends more time a point; once the points times operations a context has
 * interpreted for the expression would pass what a compile costs (NVRTC, 0.1-0.3 s),
 * the call compiles it, stores it in the cache and runs compiled from then on: no
 * sequence of calls pays much more than twice its best choice. gp_integrate_prepare
 * compiles ahead of time instead. GPUPRIMS_JIT=always compiles at first use, =never
 * interprets every expression that fits the interpreter (120 operations, 32 constants,
 * a stack of 8); larger ones are always compiled. The cache keeps one file per
 * expression, precision, GPU architecture and library/NVRTC version in
 * $GPUPRIMS_CACHE_DIR, else $XDG_CACHE_HOME/gpuprims, else ~/.cache/gpuprims;
 * GPUPRIMS_CACHE_DIR=off (or empty) turns it off. Processes may share it; a damaged
 * entry is compiled again. */

/* gp_integrate with precision GP_F64 or GP_F32 (any other dtype: GP_ERR_UNSUPPORTED). */
gp_status gp_integrate_ex(gp_context *ctx, const char *expr, double a, double b,
                          uint64_t n, gp_dtype precision, double *result);
/* gp_integrate_ex for a `result` the caller knows is device (or managed) memory on a
 * CUDA context: the same kernel and bits, asynchronous, but without the per-call
 * pointer query (cudaPointerGetAttributes), for callers that launch back to back. A
 * host pointer there is undefined (a GPU fault) unless GPUPRIMS_DEBUG_SYNC=1, which
 * checks it (GP_ERR_INVALID_ARGUMENT). On the CPU backend result is host memory and
 * this is gp_integrate_ex. */
gp_status gp_integrate_device(gp_context *ctx, const char *expr, double a, double b,
                              uint64_t n, gp_dtype precision, double *result);
/* Parses and (on CUDA) compiles and loads expr for `precision` ahead of time, so a timed
 * gp_integrate_ex runs the compiled kernel and never compiles (GPUPRIMS_JIT=never: the
 * interpreter stays, nothing is compiled). *compile_seconds (may be NULL) gets the wall
 * time spent on NVRTC (or reading the on-disk cache) and loading, 0 when the context had
 * the kernel already (or on the CPU backend, where it is the parse time). */
gp_status gp_integrate_prepare(gp_context *ctx, const char *expr, gp_dtype precision,
                               double *compile_seconds);
/* Writes the CUDA source generated for expr and precision (NUL-terminated, truncated to
 * `size`) into buf, and the size it needs (with the NUL) into *needed (may be NULL).
 * Works on any backend and in a CPU-only build (GP_ERR_UNSUPPORTED there). */
gp_status gp_integrate_source(gp_context *ctx, const char *expr, gp_dtype precision,
                              char *buf, size_t size, size_t *needed);

/* The three stages of seed 003 (6.24, Program 6.15, Table 6.10) with f(x) = x^2 in
 * float, h = (b - a) / n and the points 0 < i < n each evaluated by one thread:
 *  stage 1: every thread atomicAdds its f(x_i) into one global float;
 *  stage 2: 32-thread blocks; a warp sum (shuffles), one atomicAdd per block;
 *  stage 3: 1024-thread blocks; Program 6.15: per-warp sums in shared memory, lane 0s
 *           store warp_sum_arr, __syncthreads, warp 0 sums them, one atomicAdd per block.
 * The float total plus (f(a) + f(b))/2, times h, goes to *result. CUDA backend only
 * (GP_ERR_UNSUPPORTED otherwise). NOT deterministic: float atomicAdds land in whatever
 * order the blocks finish, and float accumulation of 2^20+ terms loses digits (the
 * seed's design; gp_integrate_ex is the deterministic F64-accumulating integrator).
 * n must be 1 .. 2^40; beyond 2^31 threads the kernels loop grid-stride. `result` may be
 * device memory (then asynchronous: two launches, no copy), else the call waits. */
gp_status gp_trap_seed(gp_context *ctx, int stage, float a, float b, uint64_t n,
                       double *result);
/* Evaluates expr (the language above) at x on the host, in F64, on any backend: for
 * constant arguments such as an interval's ends ("pi/2", "-e", "1e-3"). GP_ERR_PARSE
 * with the column for a syntax error. A result that is not finite is returned as it is. */
gp_status gp_expr_value(gp_context *ctx, const char *expr, double x, double *value);
/* ==== end of integration ============================================================ */

#ifdef __cplusplus
}
#endif
#endif /* GPUPRIMS_H */
