"""test_readme.py -- the README's Python examples run as written: every
```python block of its "Python" section runs from the top folder of the
checkout, and where a ```text block follows it (after a line "prints"),
prints exactly that.  An example that reads the data set (../shared/data)
is skipped, by name, when the data set is not there; one that imports Dask
when python3-distributed is missing."""
import os
import re
import subprocess
import sys

import pytest

from conftest import DATA, ROOT


def examples():
    text = open(os.path.join(ROOT, "README.md")).read()
    start = text.index("\n## Python\n")
    end = text.index("\n## ", start + 1)
    section = text[start:end]
    blocks = re.findall(r"```(python|text)\n(.*?)```", section, re.S)
    out = []
    for k, (kind, body) in enumerate(blocks):
        if kind == "python":
            want = blocks[k + 1][1] if k + 1 < len(blocks) and blocks[k + 1][0] == "text" else None
            out.append((body, want))
    return out


def test_there_are_examples():
    ex = examples()
    assert len(ex) >= 2 and all(want for _, want in ex)
    # the first one is the short one
    assert len([l for l in ex[0][0].splitlines() if l.strip()]) <= 10


@pytest.mark.parametrize("k", range(len(examples())))
def test_readme_example_runs(k):
    code, want = examples()[k]
    if "../shared/data" in code and not os.path.isdir(DATA):
        pytest.skip("README example %d needs the data set ../shared/data" % (k + 1))
    if "distributed" in code:
        pytest.importorskip("distributed", reason="README example %d needs python3-distributed"
                            % (k + 1))
    p = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    if want is not None:
        assert p.stdout == want
