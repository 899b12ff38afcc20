"""halfspace.errors -- the exceptions of the binding, one per hs_code.

Every failing call of the C library fills an ``hs_error`` (a code and a
message, for input errors ``FILE:LINE: what is wrong``); the binding turns it
into an exception of the class matching the code, carrying the message
unchanged.  All of them derive from :class:`halfspace.Error`, and each also
from the built-in exception a Python program would expect:

=====================  ==================  ==========================
hs_code                class               also a
=====================  ==================  ==========================
HS_ERR_INPUT           InputError          ValueError
HS_ERR_ARG             ArgumentError       ValueError
HS_ERR_IO              FileError           OSError
HS_ERR_NOMEM           OutOfMemoryError    MemoryError
HS_ERR_UNSUPPORTED     UnsupportedError    NotImplementedError
HS_ERR_INTERNAL        InternalError       RuntimeError
=====================  ==================  ==========================

Arguments the binding rejects before calling C (wrong shapes, unknown
names) raise ArgumentError too, or TypeError for objects of the wrong kind.
"""
import re

from ._halfspace_cffi import ffi, lib

__all__ = ["Error", "InputError", "ArgumentError", "FileError", "OutOfMemoryError",
           "UnsupportedError", "InternalError", "CertificateError"]


class Error(Exception):
    """Base class of every error the library reports.

    Attributes:
        code: the hs_code as an int (``lib.HS_ERR_INPUT``, ...).
        code_name: its name, such as ``"HS_ERR_INPUT"``.
        message: the library's message, as the C API gives it (for input
            errors ``FILE:LINE: what is wrong``).
        file, line: the FILE and LINE of such a message (None when the
            message does not start with them).
    """

    code = 0
    code_name = "HS_OK"

    def __init__(self, message, code=None):
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code
        m = re.match(r"(.+?):(\d+): ", message)
        self.file = m.group(1) if m else None
        self.line = int(m.group(2)) if m else None

    def __str__(self):
        return self.message


class InputError(Error, ValueError):
    """Malformed or invalid input: a file, text or arrays (HS_ERR_INPUT)."""
    code = lib.HS_ERR_INPUT
    code_name = "HS_ERR_INPUT"


class ArgumentError(Error, ValueError):
    """An invalid argument (HS_ERR_ARG), from the library or the binding."""
    code = lib.HS_ERR_ARG
    code_name = "HS_ERR_ARG"


class FileError(Error, OSError):
    """A file could not be opened, read or written (HS_ERR_IO)."""
    code = lib.HS_ERR_IO
    code_name = "HS_ERR_IO"


class OutOfMemoryError(Error, MemoryError):
    """The library ran out of memory (HS_ERR_NOMEM)."""
    code = lib.HS_ERR_NOMEM
    code_name = "HS_ERR_NOMEM"


class UnsupportedError(Error, NotImplementedError):
    """A valid request this build cannot honour (HS_ERR_UNSUPPORTED)."""
    code = lib.HS_ERR_UNSUPPORTED
    code_name = "HS_ERR_UNSUPPORTED"


class InternalError(Error, RuntimeError):
    """A self-check of the library failed: a bug, please report it
    (HS_ERR_INTERNAL)."""
    code = lib.HS_ERR_INTERNAL
    code_name = "HS_ERR_INTERNAL"


class CertificateError(InputError):
    """A certificate did not prove its answer (hs_result_verify rejected
    it; the message says why)."""


_BY_CODE = {cls.code: cls for cls in (InputError, ArgumentError, FileError, OutOfMemoryError,
                                      UnsupportedError, InternalError)}


def new_error():
    """A fresh hs_error (owned by Python) to pass to a C call."""
    return ffi.new("hs_error *")


def from_error(err, code=None, cls=None):
    """The exception for a filled hs_error (code overrides err.code when
    the call returned its code and left err untouched)."""
    c = int(code if code is not None else err.code)
    msg = ffi.string(err.msg).decode("utf-8", "replace")
    if not msg:
        msg = "the library reported error code %d without a message" % c
    if cls is None:
        cls = _BY_CODE.get(c, Error)
    e = cls(msg)
    e.code = c
    return e


def check(code, err):
    """Raise the exception for a nonzero hs_code returned with err."""
    if code != lib.HS_OK:
        raise from_error(err, code)
