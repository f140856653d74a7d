"""The Python session of README.md, section "Python", runs as written: its ```python blocks
are executed in order in one namespace (in a temporary directory), and a block followed by a
```text block must print exactly that text (the README shows real output)."""

import contextlib
import io
import os
import re

README = os.environ.get("HDAE_README") or os.path.join(
    os.path.dirname(__file__), "..", "..", "README.md")


def python_section_blocks():
    text = open(README, encoding="utf-8").read()
    match = re.search(r"^## Python\n(.*?)(?=^## )", text, re.S | re.M)
    assert match, "README.md has no section '## Python'"
    blocks = re.findall(r"```(python|text)\n(.*?)```", match.group(1), re.S)
    pairs = []
    for kind, body in blocks:
        if kind == "python":
            pairs.append([body, None])
        elif pairs and pairs[-1][1] is None:
            pairs[-1][1] = body
    return pairs


def test_readme_python_session(tmp_path, monkeypatch):
    pairs = python_section_blocks()
    assert len(pairs) >= 3, "the README's Python session is missing blocks"
    monkeypatch.chdir(tmp_path)
    namespace = {"__name__": "__main__"}
    for i, (code, expected) in enumerate(pairs):
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            exec(compile(code, f"README.md Python block {i + 1}", "exec"), namespace)
        if expected is not None:
            assert out.getvalue().rstrip() == expected.rstrip(), f"block {i + 1}"
