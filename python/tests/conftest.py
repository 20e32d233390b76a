"""Shared test helpers: the backends to test (the CPU everywhere, CUDA where a GPU is
usable), a moderate hypothesis profile (GPUPRIMS_HYPOTHESIS_EXAMPLES raises it), and
NumPy references for the library's documented orders."""
import os

os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")  # JAX beside torch/CuPy

import numpy as np  # noqa: E402
import pytest  # noqa: E402

import gpuprims  # noqa: E402

try:
    from hypothesis import HealthCheck, settings
    settings.register_profile(
        "gpuprims", max_examples=int(os.environ.get("GPUPRIMS_HYPOTHESIS_EXAMPLES", "25")),
        deadline=None, suppress_health_check=[HealthCheck.too_slow])
    settings.load_profile("gpuprims")
except ImportError:
    pass


def _cuda_context():
    try:
        c = gpuprims.Context("cuda")
    except gpuprims.GpuprimsError:
        return None
    return c


CUDA_CTX = _cuda_context()
BACKENDS = ["cpu"] + (["cuda"] if CUDA_CTX is not None else [])
CONTEXTS = {"cpu": gpuprims.Context("cpu"), "cuda": CUDA_CTX}
# for hypothesis tests, which cannot take the function-scoped ctx fixture
each_backend = pytest.mark.parametrize("backend", BACKENDS)


@pytest.fixture(params=BACKENDS)
def ctx(request):
    """A context of each backend usable here (NumPy data is host memory: the CUDA
    backend stages it)."""
    return gpuprims.Context(request.param) if request.param == "cpu" else CUDA_CTX


DTYPES = [np.float32, np.float64, np.int32, np.int64, np.uint32, np.uint64]


def order_key(a):
    """Unsigned keys whose ascending order is the library's total order of a's values:
    floats -NaN < -inf < ... < -0 < +0 < ... < +inf < +NaN, ints as numbers."""
    a = np.ascontiguousarray(a)
    bits = 8 * a.dtype.itemsize
    u = a.view(np.uint32 if bits == 32 else np.uint64)
    top = (np.uint32 if bits == 32 else np.uint64)(1 << (bits - 1))
    if a.dtype.kind == "f":
        return np.where(u & top, ~u, u | top)
    if a.dtype.kind == "i":
        return u ^ top
    return u


def ref_argsort(a, descending=False):
    """Stable argsort along the last axis in the library's order."""
    k = order_key(a)
    return np.argsort(~k if descending else k, axis=-1, kind="stable")


def bits(a):
    a = np.ascontiguousarray(a)
    return a.view(np.uint32 if a.dtype.itemsize == 4 else np.uint64)
