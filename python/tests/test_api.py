"""test_api.py -- the binding's surface: every HS_API function of the
headers is reachable through the cffi module, every public class, function,
method and property has a docstring, the version is the header's, and the
module is linked to the versioned shared library."""
import glob
import inspect
import os
import re
import subprocess

import halfspace as hs
from halfspace._halfspace_cffi import lib
from conftest import ROOT


def test_every_hs_api_function_is_bound():
    names = set()
    for f in [os.path.join(ROOT, "include", "halfspace.h")] + \
            glob.glob(os.path.join(ROOT, "include", "halfspace", "*.h")):
        text = re.sub(r"/\*.*?\*/", "", open(f).read(), flags=re.S)
        names |= set(re.findall(r"\bHS_API\b[^;(]*?\b(hs_[a-z0-9_]+)\s*\(", text))
    assert len(names) > 140
    missing = sorted(n for n in names if not hasattr(lib, n))
    assert not missing, missing


def test_version_is_the_headers():
    text = open(os.path.join(ROOT, "include", "halfspace.h")).read()
    v = ".".join(re.search(r"#define HS_VERSION_%s (\d+)" % k, text).group(1)
                 for k in ("MAJOR", "MINOR", "PATCH"))
    assert hs.__version__ == v


def test_linked_to_the_soname():
    so = hs._halfspace_cffi.__file__
    out = subprocess.run(["readelf", "-d", so], capture_output=True, text=True).stdout
    major = hs.__version__.split(".")[0]
    assert "[libhalfspace.so.%s]" % major in out


def test_docstrings_everywhere():
    missing = []
    for name in hs.__all__:
        obj = getattr(hs, name)
        if not (inspect.getdoc(obj) or "").strip():
            missing.append(name)
        if inspect.isclass(obj):
            for attr, member in vars(obj).items():
                if attr.startswith("_") or attr in ("count", "index"):
                    continue
                if callable(member) or isinstance(member, (property, classmethod,
                                                           staticmethod)):
                    doc = inspect.getdoc(getattr(obj, attr, None)) or \
                        getattr(member, "__doc__", None)
                    if not (doc or "").strip():
                        missing.append("%s.%s" % (name, attr))
    for mod in (hs.poses, hs.errors):
        for n in mod.__all__:
            if not (inspect.getdoc(getattr(mod, n)) or "").strip():
                missing.append("%s.%s" % (mod.__name__, n))
    assert not missing, missing
    assert "engine" in hs.intersect.__doc__ and "Returns" in hs.intersect.__doc__
