"""The Python sessions of the documentation run as written: README.md's first model (section
"A first model in Python") and the guide's session (docs/python.md). Their ```python blocks are
executed in order in one namespace per page (in a temporary directory), and a block followed by
a ```text block must print exactly that text (the pages show real output)."""

import contextlib
import io
import os
import re

README = os.environ.get("HDAE_README") or os.path.join(
    os.path.dirname(__file__), "..", "..", "README.md")
GUIDE = os.path.join(os.path.dirname(README), "docs", "python.md")


def session_blocks(text):
    """The (code, expected output or None) pairs of the ```python and ```text blocks."""
    blocks = re.findall(r"```(python|text)\n(.*?)```", text, re.S)
    pairs = []
    for kind, body in blocks:
        if kind == "python":
            pairs.append([body, None])
        elif pairs and pairs[-1][1] is None:
            pairs[-1][1] = body
    return pairs


def run_session(pairs, name, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    namespace = {"__name__": "__main__"}
    for i, (code, expected) in enumerate(pairs):
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            exec(compile(code, f"{name} Python block {i + 1}", "exec"), namespace)
        if expected is not None:
            assert out.getvalue().rstrip() == expected.rstrip(), f"{name} block {i + 1}"


def test_readme_first_model(tmp_path, monkeypatch):
    text = open(README, encoding="utf-8").read()
    match = re.search(r"^## A first model in Python\n(.*?)(?=^## )", text, re.S | re.M)
    assert match, "README.md has no section '## A first model in Python'"
    pairs = session_blocks(match.group(1))
    assert len(pairs) == 1 and pairs[0][1] is not None, "the README's first model lost a block"
    run_session(pairs, "README.md", tmp_path, monkeypatch)


def test_guide_python_session(tmp_path, monkeypatch):
    pairs = session_blocks(open(GUIDE, encoding="utf-8").read())
    assert len(pairs) >= 3, "the Python session of docs/python.md is missing blocks"
    run_session(pairs, "docs/python.md", tmp_path, monkeypatch)
