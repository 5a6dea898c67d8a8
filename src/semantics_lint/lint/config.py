"""``[tool.semantics-lint]`` in ``pyproject.toml``: finding, reading and checking it.

Discovery follows ruff: for each linted file the closest ``pyproject.toml`` that
holds a ``[tool.semantics-lint]`` table wins (a ``pyproject.toml`` without the
table is skipped and the walk goes on upwards); ``--config PATH`` names one file
for every path instead. Paths and globs in a configuration are relative to the
folder of the file that names them.

Keys (all optional):

==================  ==========================  ===========================================
key                 type                        meaning
==================  ==========================  ===========================================
select              list of codes/prefixes      rules to run (default: every rule)
extend-select       list of codes/prefixes      rules to run on top of ``select``
ignore              list of codes/prefixes      rules not to run
per-file-ignores    table: glob -> list         codes ignored in files matching the glob
exclude             list of globs               replaces the default excluded folders
extend-exclude      list of globs               excluded on top of ``exclude``
api-modules         list of module names        modules whose ``absent``/``coverage``/
                                                ``define_tool`` are ours (replaces default)
call-names          list of names               names that are ``described_result`` by
                                                name alone (replaces default)
==================  ==========================  ===========================================

Mistakes are never silently ignored: invalid TOML, an unknown key, a wrong type,
or a selector that names no rule raise :class:`ConfigError` naming the file and
the key; the CLI turns that into exit code 2.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from semantics_lint import vocabulary

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised only on Python 3.10
    import tomli as tomllib

TABLE = "semantics-lint"
PYPROJECT = "pyproject.toml"

# A selector is a whole code ("SEM102") or a prefix of one ("SEM", "SEM1", "SEM10").
SELECTOR = re.compile(r"^SEM[0-9]{0,3}$")
ALL_SELECTOR = "ALL"

class ConfigError(Exception):
    """A configuration mistake; the message names the file and the key."""


@dataclass(frozen=True, slots=True)
class Config:
    """One ``[tool.semantics-lint]`` table, checked. ``path`` None means the defaults.

    ``None`` for ``select``/``exclude``/``api_modules``/``call_names`` means the
    key was not given and the default applies.
    """

    path: Path | None = None
    select: tuple[str, ...] | None = None
    extend_select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    per_file_ignores: tuple[tuple[str, tuple[str, ...]], ...] = ()
    exclude: tuple[str, ...] | None = None
    extend_exclude: tuple[str, ...] = ()
    api_modules: tuple[str, ...] | None = None
    call_names: tuple[str, ...] | None = None

    @property
    def root(self) -> Path | None:
        """The folder that relative paths and globs in this configuration start from."""
        return None if self.path is None else self.path.parent


DEFAULT_CONFIG = Config()


@dataclass(frozen=True, slots=True)
class _Key:
    attribute: str
    kind: str  # "codes", "strings" or "table"


_KEYS: Mapping[str, _Key] = {
    "select": _Key("select", "codes"),
    "extend-select": _Key("extend_select", "codes"),
    "ignore": _Key("ignore", "codes"),
    "per-file-ignores": _Key("per_file_ignores", "table"),
    "exclude": _Key("exclude", "strings"),
    "extend-exclude": _Key("extend_exclude", "strings"),
    "api-modules": _Key("api_modules", "strings"),
    "call-names": _Key("call_names", "strings"),
}

CONFIG_KEYS: tuple[str, ...] = tuple(_KEYS)


def known_codes() -> frozenset[str]:
    """Every code a finding can carry (SPEC section 4), without importing the rules."""
    return frozenset(vocabulary.RULE_CODES)


def check_selectors(selectors: Iterable[str], where: str) -> tuple[str, ...]:
    """Selectors checked for shape and for naming at least one known code.

    ``where`` says where they came from ("pyproject.toml: select", "--ignore"), for
    the message. ``ALL`` selects every code.
    """
    checked: list[str] = []
    codes: frozenset[str] | None = None
    for selector in selectors:
        selector = selector.strip()
        if selector == ALL_SELECTOR:
            checked.append(selector)
            continue
        if not SELECTOR.match(selector):
            raise ConfigError(
                f"{where}: {selector!r} is not a rule code or prefix "
                "(expected SEM followed by up to three digits, e.g. SEM102 or SEM1)"
            )
        if codes is None:
            codes = known_codes()
        if not any(code.startswith(selector) for code in codes):
            raise ConfigError(f"{where}: {selector!r} matches no rule")
        checked.append(selector)
    return tuple(checked)


def load_config(path: Path) -> Config:
    """Read and check the ``[tool.semantics-lint]`` table of ``path``.

    A file without the table yields the defaults with ``path`` set (so the caller
    knows a file was named), which is what ``--config`` on such a file means.
    """
    try:
        raw = path.read_bytes()
    except OSError as error:
        raise ConfigError(f"{path}: cannot read the configuration: {error.strerror or error}")
    try:
        document = tomllib.loads(raw.decode("utf-8"))
    except UnicodeDecodeError as error:
        raise ConfigError(f"{path}: not UTF-8 text: {error}") from None
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(f"{path}: invalid TOML: {error}") from None
    table = _table_of(document)
    if table is None:
        return Config(path=path)
    if not isinstance(table, dict):
        raise ConfigError(f"{path}: [tool.{TABLE}] must be a table")
    return _parse_table(path, table)


def _table_of(document: Mapping[str, Any]) -> Any:
    tool = document.get("tool")
    if not isinstance(tool, dict):
        return None
    return tool.get(TABLE)


def has_table(path: Path) -> bool:
    """True when ``path`` is a readable TOML file with a ``[tool.semantics-lint]`` table.

    Invalid TOML in a ``pyproject.toml`` counts as "has the table" when the text
    mentions it, so that the mistake is reported instead of silently skipped.
    """
    try:
        raw = path.read_bytes()
    except OSError:
        return False
    try:
        document = tomllib.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError):
        return b"semantics-lint" in raw
    return _table_of(document) is not None


def _parse_table(path: Path, table: Mapping[str, Any]) -> Config:
    values: dict[str, Any] = {"path": path}
    for key, value in table.items():
        spec = _KEYS.get(key)
        if spec is None:
            known = ", ".join(CONFIG_KEYS)
            raise ConfigError(f"{path}: [tool.{TABLE}] has unknown key {key!r} (known keys: {known})")
        where = f"{path}: [tool.{TABLE}] {key}"
        if spec.kind == "table":
            values[spec.attribute] = _parse_per_file_ignores(where, value)
            continue
        strings = _string_list(where, value)
        if spec.kind == "codes":
            strings = check_selectors(strings, where)
        values[spec.attribute] = strings
    return Config(**values)


def _string_list(where: str, value: Any) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise ConfigError(f"{where}: expected a list of strings, got {_describe(value)}")
    return tuple(value)


def _parse_per_file_ignores(where: str, value: Any) -> tuple[tuple[str, tuple[str, ...]], ...]:
    if not isinstance(value, dict):
        raise ConfigError(f"{where}: expected a table of glob = [codes], got {_describe(value)}")
    entries: list[tuple[str, tuple[str, ...]]] = []
    for glob, codes in value.items():
        codes = _string_list(f"{where} {glob!r}", codes)
        entries.append((glob, check_selectors(codes, f"{where} {glob!r}")))
    return tuple(entries)


def _describe(value: Any) -> str:
    if isinstance(value, list):
        kinds = sorted({type(item).__name__ for item in value})
        return f"a list of {', '.join(kinds)}" if kinds else "an empty list"
    return f"{type(value).__name__} {value!r}"


def find_config_file(start: Path) -> Path | None:
    """The closest ``pyproject.toml`` with our table, from ``start`` (a folder) upwards."""
    for folder in (start, *start.parents):
        candidate = folder / PYPROJECT
        if candidate.is_file() and has_table(candidate):
            return candidate
    return None


@dataclass
class ConfigResolver:
    """Which configuration governs which folder; each file is read once.

    With ``explicit`` set (``--config``), that configuration governs everything.
    """

    explicit: Config | None = None
    _by_folder: dict[Path, Config] = field(default_factory=dict)
    _by_file: dict[Path, Config] = field(default_factory=dict)

    def for_folder(self, folder: Path) -> Config:
        """The configuration for files in ``folder`` (an absolute path)."""
        if self.explicit is not None:
            return self.explicit
        # Walk up until a folder whose answer is known (or the root), then fill in
        # every folder on the way, so each pyproject.toml is read once per run.
        chain: list[Path] = []
        current = folder
        config: Config | None = None
        while True:
            cached = self._by_folder.get(current)
            if cached is not None:
                config = cached
                break
            chain.append(current)
            candidate = current / PYPROJECT
            if os.path.isfile(candidate) and has_table(candidate):
                config = self._by_file.get(candidate) or load_config(candidate)
                self._by_file[candidate] = config
                break
            if current.parent == current:
                config = DEFAULT_CONFIG
                break
            current = current.parent
        for visited in chain:
            self._by_folder[visited] = config
        return config

    def for_file(self, path: Path) -> Config:
        """The configuration for the file at ``path`` (an absolute path)."""
        return self.for_folder(path.parent)
