"""Exceptions: every status other than GP_OK becomes a GpuprimsError subclass whose
message is gp_last_error's text for the failed call."""
from __future__ import annotations


class GpuprimsError(RuntimeError):
    """Base of every error the library reports. `status` is the C status name
    ("GP_ERR_INVALID_ARGUMENT", ...); str(e) is the library's message."""

    status = "GP_ERR"


class InvalidArgumentError(GpuprimsError, ValueError):
    status = "GP_ERR_INVALID_ARGUMENT"


class UnsupportedError(GpuprimsError):
    status = "GP_ERR_UNSUPPORTED"


class NoDeviceError(GpuprimsError):
    status = "GP_ERR_NO_DEVICE"


class OutOfMemoryError(GpuprimsError, MemoryError):
    status = "GP_ERR_OUT_OF_MEMORY"


class CudaError(GpuprimsError):
    status = "GP_ERR_CUDA"


class GpuprimsIOError(GpuprimsError, OSError):
    status = "GP_ERR_IO"


class FormatError(GpuprimsError):
    status = "GP_ERR_FORMAT"


class ParseError(GpuprimsError, ValueError):
    status = "GP_ERR_PARSE"


# indexed by the gp_status value
_BY_STATUS = (None, InvalidArgumentError, UnsupportedError, NoDeviceError,
              OutOfMemoryError, CudaError, GpuprimsIOError, FormatError, ParseError)


def error_for(status: int, message: str) -> GpuprimsError:
    cls = _BY_STATUS[status] if 0 < status < len(_BY_STATUS) else GpuprimsError
    return cls(message or "gpuprims call failed with status %d" % status)
