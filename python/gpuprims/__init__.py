"""gpuprims: GPU parallel primitives (reduction, sorting, trapezoidal integration) for
NumPy, PyTorch, CuPy and JAX arrays, over the C library libgpuprims through ctypes.
Device arrays are used where they are (no copies), on the caller's current stream;
results come back as the caller's array type on the caller's device.

>>> import numpy as np, gpuprims
>>> gpuprims.sum(np.ones(1000, dtype=np.float32))
1000.0
"""
try:
    from ._api import (argmax, argmin, argsort, device_info, integrate, max, min, sort,
                       sort_pairs, sum, topk, version)
    from .context import Context, DeviceInfo, default_context
    from . import model
except ImportError as e:  # no libgpuprims: gpuprims.plot still works, the rest says why
    if "libgpuprims" not in str(e):
        raise
    _missing = e

    def __getattr__(name):
        raise ImportError(str(_missing))
from .errors import (CudaError, FormatError, GpuprimsError, GpuprimsIOError,
                     InvalidArgumentError, NoDeviceError, OutOfMemoryError, ParseError,
                     UnsupportedError)

__all__ = ["sum", "min", "max", "argmin", "argmax", "sort", "sort_pairs", "argsort",
           "topk", "integrate", "version", "device_info", "Context", "DeviceInfo",
           "default_context", "model", "GpuprimsError", "InvalidArgumentError",
           "UnsupportedError", "NoDeviceError", "OutOfMemoryError", "CudaError",
           "GpuprimsIOError", "FormatError", "ParseError"]
__version__ = "0.1.0"
