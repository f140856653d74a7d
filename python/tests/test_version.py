"""hdae.__version__ is the version CHANGELOG.md names as its newest (and CMake's project
version, which a ctest holds to the same entry)."""

import pathlib
import re

import hdae


def test_the_package_version_is_the_newest_changelog_entry():
    changelog = pathlib.Path(__file__).resolve().parents[2] / "CHANGELOG.md"
    newest = re.search(r"^## \[([^\]]+)\]", changelog.read_text(encoding="utf-8"), re.M)
    assert newest is not None, "CHANGELOG.md has no '## [x.y.z] - date' heading"
    assert hdae.__version__ == newest.group(1)
    assert re.fullmatch(r"\d+\.\d+\.\d+", hdae.__version__)
