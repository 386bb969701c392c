"""The Python examples of docs/python.md and of the README run as written."""

import re
import subprocess
import sys

import pytest

from conftest import REPO


def examples(path):
    text = (REPO / path).read_text()
    return re.findall(r"```python\n(.*?)```", text, flags=re.S)


DOCS = [("docs/python.md", i, code) for i, code in enumerate(examples("docs/python.md"))]
README = [("README.md", i, code) for i, code in enumerate(examples("README.md"))]


def test_there_are_examples():
    assert len(DOCS) >= 6 and len(README) >= 1


@pytest.mark.parametrize("path, index, code", DOCS + README, ids=[f"{p}#{i}" for p, i, _ in DOCS + README])
def test_example_runs(path, index, code, tmp_path):
    script = tmp_path / "example.py"
    script.write_text(code)
    # A script of its own (the Dask example starts worker processes that import it), run from
    # the repository's root, where the examples' paths start.
    done = subprocess.run([sys.executable, str(script)], cwd=REPO, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr
