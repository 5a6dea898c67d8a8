"""The lock of the test environment (constraints.txt) covers what the extras ask for.

Every requirement of the ``test`` and ``dev`` extras (and of the extras they name) is
pinned in ``constraints.txt`` at a version inside its range, so that installing with
the lock holds every one of them; and the README's install and ``.ci/run`` use it.
A requirement added to an extra without refreshing the lock (``nox -s lock``,
CONTRIBUTING.md) fails here.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

ROOT = Path(__file__).resolve().parent.parent
LOCK = ROOT / "constraints.txt"
INSTALL = "pip install -e '.[test]' -c constraints.txt"


def _pins() -> dict[str, set[Version]]:
    pins: dict[str, set[Version]] = {}
    for line in LOCK.read_text(encoding="utf-8").splitlines():
        found = re.match(r"^([A-Za-z0-9._-]+)==([^\s;]+)", line)
        if found:
            pins.setdefault(canonicalize_name(found.group(1)), set()).add(Version(found.group(2)))
    return pins


def _requirements(extras: list[str]) -> list[Requirement]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    name = canonicalize_name(project["name"])
    optional = project["optional-dependencies"]
    wanted: list[Requirement] = [Requirement(text) for text in project["dependencies"]]
    seen: set[str] = set()
    while extras:
        extra = extras.pop()
        if extra in seen:
            continue
        seen.add(extra)
        for text in optional[extra]:
            requirement = Requirement(text)
            if canonicalize_name(requirement.name) == name:
                extras.extend(requirement.extras)
            else:
                wanted.append(requirement)
    return wanted


def test_every_requirement_of_the_test_and_dev_extras_is_pinned_in_its_range() -> None:
    pins = _pins()
    assert pins, "constraints.txt pins nothing"
    for requirement in _requirements(["test", "dev"]):
        if requirement.marker is not None and not requirement.marker.evaluate():
            continue
        versions = pins.get(canonicalize_name(requirement.name))
        assert versions, f"{requirement.name} is not in constraints.txt: run nox -s lock"
        assert any(requirement.specifier.contains(v, prereleases=True) for v in versions), (
            f"constraints.txt pins {requirement.name} at {sorted(map(str, versions))}, "
            f"outside {requirement}: run nox -s lock"
        )


def test_the_readme_and_ci_install_with_the_lock() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert f".venv/bin/{INSTALL}" in readme
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "-m " + INSTALL.replace("pip install", "pip install --quiet") in ci
