"""conftest.py -- shared fixtures of the Python tests: where the CLI, the
examples and the checkout are, and running the CLI.

HS_CLI (the halfspace program) and HS_EXAMPLES (the examples folder) are set
by `make python-run`; by default they are build/halfspace and examples/ of
the checkout holding these tests."""
import json
import os
import subprocess

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CLI = os.environ.get("HS_CLI", os.path.join(ROOT, "build", "halfspace"))
EXAMPLES = os.environ.get("HS_EXAMPLES", os.path.join(ROOT, "examples"))
DATA = os.path.join(ROOT, "..", "shared", "data")


def run_cli(*args, check=True):
    """Run the CLI; returns its stdout (str).  check: exit code 0 required."""
    p = subprocess.run([CLI] + [str(a) for a in args], capture_output=True, text=True)
    if check and p.returncode != 0:
        raise AssertionError("halfspace %s: exit %d\n%s" % (" ".join(map(str, args)),
                                                           p.returncode, p.stderr))
    return p.stdout


def run_cli_json(*args):
    """Run the CLI with arguments that include --json; the parsed output."""
    return json.loads(run_cli(*args))


@pytest.fixture(scope="session")
def cli():
    if not os.access(CLI, os.X_OK):
        pytest.fail("no CLI at %s (set HS_CLI or run make)" % CLI)
    return run_cli


@pytest.fixture(scope="session")
def examples():
    return EXAMPLES


def ex(*parts):
    return os.path.join(EXAMPLES, *parts)
