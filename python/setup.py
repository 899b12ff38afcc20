"""setup.py -- the halfspace Python package for pip, offline, with Debian's
setuptools and cffi (no registry is needed):

    python3 -m venv --system-site-packages VENV         # or any environment
    VENV/bin/python -m pip install --no-build-isolation --no-index ./python

The extension is compiled against the headers and linked to the
libhalfspace.so found by build_ffi._default_dirs: HALFSPACE_INCLUDE and
HALFSPACE_LIBDIR when both are set, else the checkout's include/ and build/
(after `make`), else the installed library (pkg-config halfspace); it gets
an rpath to that library's folder.  `make python` and `make install` build
the same package without pip (see the README, "Python")."""
import os
import re

from setuptools import setup

HERE = os.path.dirname(os.path.abspath(__file__))


def version():
    """The version of the headers (HS_VERSION_* in include/halfspace.h)."""
    inc = os.environ.get("HALFSPACE_INCLUDE", os.path.join(HERE, "..", "include"))
    try:
        text = open(os.path.join(inc, "halfspace.h")).read()
    except OSError:
        return "0"
    parts = [re.search(r"#define HS_VERSION_%s (\d+)" % k, text) for k in
             ("MAJOR", "MINOR", "PATCH")]
    return ".".join(m.group(1) for m in parts) if all(parts) else "0"


setup(
    name="halfspace",
    version=version(),
    description="Exact intersection of convex polyhedra, worlds and kinematic chains "
                "(binding of libhalfspace)",
    packages=["halfspace"],
    cffi_modules=["build_ffi.py:ffibuilder"],
    install_requires=["cffi", "numpy"],
    python_requires=">=3.8",
)
