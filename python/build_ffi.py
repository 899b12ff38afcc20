"""build_ffi.py -- the cffi (API mode, out-of-line) builder of halfspace._halfspace_cffi.

The C declarations given to cffi are read from the public headers themselves
(include/halfspace.h and every include/halfspace/*.h it includes): every
HS_API function, every typedef (enums, structs, handles, callbacks) and every
integer #define.  A declaration added to a header is therefore bound with no
change here; in API mode the generated C file is compiled against the same
headers, so the C compiler checks every declaration against the real one.

Used three ways:

  python3 build_ffi.py OUT.c INCLUDE_DIR      write the C source of the module
                                              (the Makefile compiles it: make python)
  setup.py (cffi_modules)                     pip install --no-build-isolation ./python
  import build_ffi; build_ffi.make_ffi(dir)   an FFI object, for tests and tools
"""
import os
import re
import sys

import cffi

MODULE = "halfspace._halfspace_cffi"

# Declarations of ours beside the library's: reading a FILE written by the
# library into memory (open_memstream, fclose, free), and the trace callback.
EXTRA_CDEF = """
FILE *open_memstream(char **ptr, size_t *sizeloc);
int fclose(FILE *stream);
void free(void *ptr);
extern "Python" void hs_py_trace(void *user, const char *line);
"""

SOURCE = """
#include <stdio.h>
#include <stdlib.h>
#include "halfspace.h"
"""


def header_files(include_dir):
    """The public headers in the order halfspace.h includes them."""
    top = os.path.join(include_dir, "halfspace.h")
    files = [top]
    with open(top) as f:
        for m in re.finditer(r'#include\s+"(halfspace/[a-z_0-9]+\.h)"', f.read()):
            files.append(os.path.join(include_dir, m.group(1)))
    return files


def cdef_from_headers(include_dir):
    """The cdef text: the headers with comments, preprocessor lines, C++
    guards and the HS_API mark removed, integer #defines kept as cffi
    constants and substituted into array sizes."""
    consts = {}
    decls = []
    for path in header_files(include_dir):
        with open(path) as f:
            text = f.read()
        text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
        text = re.sub(r"//[^\n]*", " ", text)
        text = re.sub(r"\\\n", " ", text)
        body = []
        for line in text.splitlines():
            s = line.strip()
            if s.startswith("#"):
                m = re.match(r"#\s*define\s+(HS_[A-Z0-9_]+)\s+(-?[0-9]+)\s*$", s)
                if m:
                    consts[m.group(1)] = m.group(2)
                continue
            if s in ('extern "C" {', "}") and not body_open(body):
                continue
            body.append(line)
        decls.append("\n".join(body))
    text = "\n".join(decls)
    text = re.sub(r"\bHS_API\b", "", text)
    for name, value in consts.items():
        text = re.sub(r"\[\s*%s\s*\]" % name, "[%s]" % value, text)
    defines = "".join("#define %s %s\n" % kv for kv in consts.items())
    return defines + text + EXTRA_CDEF


def body_open(lines):
    """True when the lines so far leave a brace open (a struct or enum body),
    so that a lone '}' belongs to it and not to an extern "C" block."""
    depth = 0
    for line in lines:
        depth += line.count("{") - line.count("}")
    return depth > 0


def make_ffi(include_dir, library_dirs=(), rpath=None):
    """The FFI builder for the module, compiled against include_dir and
    linked to libhalfspace in library_dirs (rpath: where to find it at run
    time; None for the linker's default search)."""
    ffi = cffi.FFI()
    ffi.cdef(cdef_from_headers(include_dir))
    kw = {}
    if rpath:
        kw["extra_link_args"] = ["-Wl,-rpath," + rpath]
    ffi.set_source(MODULE, SOURCE, include_dirs=[include_dir], library_dirs=list(library_dirs),
                   libraries=["halfspace"], **kw)
    return ffi


def _default_dirs():
    """Include and library folders for setup.py: HALFSPACE_INCLUDE and
    HALFSPACE_LIBDIR if set, else the checkout this file is in (../include,
    ../build) when it has been built, else pkg-config halfspace."""
    here = os.path.dirname(os.path.abspath(__file__))
    inc = os.environ.get("HALFSPACE_INCLUDE")
    lib = os.environ.get("HALFSPACE_LIBDIR")
    if inc and lib:
        return inc, lib
    top = os.path.dirname(here)
    if os.path.exists(os.path.join(top, "build", "libhalfspace.so")):
        return os.path.join(top, "include"), os.path.join(top, "build")
    import subprocess
    cflags = subprocess.run(["pkg-config", "--cflags-only-I", "halfspace"], capture_output=True,
                            text=True, check=True).stdout.split()
    libdir = subprocess.run(["pkg-config", "--variable=libdir", "halfspace"],
                            capture_output=True, text=True, check=True).stdout.strip()
    return cflags[0][2:] if cflags else "/usr/include", libdir


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: build_ffi.py OUT.c INCLUDE_DIR")
    out, include_dir = sys.argv[1], sys.argv[2]
    make_ffi(include_dir).emit_c_code(out)
elif __name__ != "build_ffi":
    # Executed by setup.py's cffi_modules ("build_ffi.py:ffibuilder"), not
    # imported as a module: the builder for the library found as
    # _default_dirs says, with an rpath to its folder.
    _inc, _lib = _default_dirs()
    ffibuilder = make_ffi(_inc, [_lib], rpath=os.path.abspath(_lib))
