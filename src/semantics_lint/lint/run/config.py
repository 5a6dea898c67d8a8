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
the key; the CLI turns that into exit code 2. So does a ``pyproject.toml`` whose
table is spelled ``[tool.semantics_lint]``, and a ``--config`` file without the
table: a ruff.toml-style file with top-level keys, or a file about something else,
would otherwise run every rule without a word.

A ``pyproject.toml`` is read only if it is a regular file of at most
``reading.MAX_SETTINGS_BYTES``, never with a blocking open; one that is there but
cannot be read is passed over by the search and listed in
:attr:`ConfigResolver.unread`, which the run reports as an error (exit code 2).

TOML is parsed only for a file that spells the table's name (a ``pyproject.toml``
without it is skipped on a byte search), and ``tomllib`` is imported on first use.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, NamedTuple

from semantics_lint import vocabulary

TABLE = "semantics-lint"
MISSPELLED_TABLE = "semantics_lint"
PYPROJECT = "pyproject.toml"
CACHE_DIR_ENV = "SEMANTICS_LINT_CACHE_DIR"
"""Where the results cache goes, when set (see :func:`default_cache_dir`)."""

ALL_SELECTOR = "ALL"


def _toml() -> Any:
    """``tomllib`` (``tomli`` on Python 3.10), imported when a file must be parsed."""
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - exercised only on Python 3.10
        import tomli as tomllib
    return tomllib


def _is_selector(text: str) -> bool:
    """A whole code ("SEM102") or a prefix of one ("SEM", "SEM1", "SEM10")."""
    return text.startswith("SEM") and len(text) <= 6 and all(c in "0123456789" for c in text[3:])


class ConfigError(Exception):
    """A configuration mistake; the message names the file and the key."""


class Config(NamedTuple):
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


class _Key(NamedTuple):
    attribute: str
    kind: str  # "codes", "globs", "strings" or "table"


_KEYS: Mapping[str, _Key] = {
    "select": _Key("select", "codes"),
    "extend-select": _Key("extend_select", "codes"),
    "ignore": _Key("ignore", "codes"),
    "per-file-ignores": _Key("per_file_ignores", "table"),
    "exclude": _Key("exclude", "globs"),
    "extend-exclude": _Key("extend_exclude", "globs"),
    "api-modules": _Key("api_modules", "strings"),
    "call-names": _Key("call_names", "strings"),
}

CONFIG_KEYS: tuple[str, ...] = tuple(_KEYS)


def known_codes() -> frozenset[str]:
    """Every code a finding can carry, as generated into the vocabulary
    (``vocabulary.RULE_CODES``): the fast path, which imports no rule."""
    return frozenset(vocabulary.RULE_CODES)


def registered_codes() -> frozenset[str]:
    """Every code a finding can carry: the generated list and the code of every rule
    class in the registry (``lint/rules``, imported here). A rule added since the list
    was last generated is known by this answer; ask it only where the generated list
    does not answer (a selector or a ``# noqa`` code it does not know)."""
    from semantics_lint.lint.rules import ALL_RULES

    return known_codes() | frozenset(rule.code for rule in ALL_RULES)


def generated_list_answers(selectors: Iterable[str]) -> bool:
    """True when every selector is ``ALL`` or matches a code of the generated list."""
    codes = known_codes()
    return all(
        selector == ALL_SELECTOR or any(code.startswith(selector) for code in codes) for selector in selectors
    )


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
        if not _is_selector(selector):
            raise ConfigError(
                f"{where}: {selector!r} is not a rule code or prefix "
                "(expected SEM followed by up to three digits, e.g. SEM102 or SEM1)"
            )
        if codes is None:
            codes = known_codes()
        if not any(code.startswith(selector) for code in codes):
            codes = registered_codes()  # a rule not generated into the list yet
            if not any(code.startswith(selector) for code in codes):
                raise ConfigError(f"{where}: {selector!r} matches no rule")
        checked.append(selector)
    return tuple(checked)


def _read_bytes(path: Path) -> bytes:
    """The bytes of the configuration file ``path`` (see ``reading.py``: a regular file
    of at most ``MAX_SETTINGS_BYTES``, never a blocking open); raises ``Unreadable``."""
    from semantics_lint.reading import MAX_SETTINGS_BYTES, read_regular

    return read_regular(path, MAX_SETTINGS_BYTES)


def _read_document(path: Path, raw: bytes | None = None) -> tuple[bytes, dict[str, Any]]:
    if raw is None:
        try:
            raw = _read_bytes(path)
        except OSError as error:
            raise ConfigError(f"{path}: cannot read the configuration: {error.strerror or error}") from None
    tomllib = _toml()
    try:
        return raw, tomllib.loads(raw.decode("utf-8"))
    except UnicodeDecodeError as error:
        raise ConfigError(f"{path}: not UTF-8 text: {error}") from None
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(f"{path}: invalid TOML: {error}") from None
    except RecursionError:  # tomllib's parser recurses once per nested array or table
        raise ConfigError(f"{path}: TOML nested too deeply to read") from None


def load_config(path: Path, raw: bytes | None = None) -> Config:
    """Read and check the ``[tool.semantics-lint]`` table of ``path`` (whose bytes are
    ``raw`` when already read).

    A file without the table is a :class:`ConfigError` that says what the file
    holds instead (top-level keys of ours, the table spelled with an underscore, or
    nothing of ours), so that ``--config`` never silently means the defaults. So is a
    file that cannot be read (not a regular file, too large, no permission).
    """
    _, document = _read_document(path, raw)
    table = _table_of(document)
    if table is None:
        raise ConfigError(f"{path}: {_why_no_table(document)}")
    if not isinstance(table, dict):
        raise ConfigError(f"{path}: [tool.{TABLE}] must be a table")
    return _parse_table(path, table)


def _why_no_table(document: Mapping[str, Any]) -> str:
    tool = document.get("tool")
    if isinstance(tool, dict) and MISSPELLED_TABLE in tool:
        return (
            f"the table is spelled [tool.{MISSPELLED_TABLE}]; "
            f"semantics-lint reads [tool.{TABLE}] (with a hyphen)"
        )
    ours = [key for key in document if key in _KEYS]
    if ours:
        listed = ", ".join(ours)
        return (
            f"has top-level {listed} but no [tool.{TABLE}] table: semantics-lint reads "
            f"its settings only from [tool.{TABLE}] (a ruff.toml-style file is not read); "
            f"put them under [tool.{TABLE}]"
        )
    return f"has no [tool.{TABLE}] table"


def _table_of(document: Mapping[str, Any]) -> Any:
    tool = document.get("tool")
    if not isinstance(tool, dict):
        return None
    return tool.get(TABLE)


def has_table(path: Path) -> bool:
    """True when ``path`` is a readable TOML file with a ``[tool.semantics-lint]`` table.

    A file that never spells ``semantics`` has no table of ours and is not parsed.
    Invalid TOML in a ``pyproject.toml`` counts as "has the table" when the text
    mentions it, so that the mistake is reported instead of silently skipped; so
    does a table spelled ``[tool.semantics_lint]``, which :func:`load_config` then
    reports. A file that cannot be read has no table here (see :func:`probe`).
    """
    return isinstance(probe(path), bytes)


def probe(path: Path) -> bytes | OSError | None:
    """``path``'s bytes when it holds our table (as :func:`has_table` decides), None when
    it does not or is not there, or the ``OSError`` (``reading.Unreadable``) saying why a
    file that is there could not be read: nobody can tell what it holds."""
    from semantics_lint.reading import Unreadable

    try:
        raw = _read_bytes(path)
    except Unreadable as error:
        return None if error.missing else error
    return raw if _mentions_table(raw) else None


def _mentions_table(raw: bytes) -> bool:
    if b"semantics" not in raw:
        return False
    tomllib = _toml()
    try:
        document = tomllib.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError, RecursionError):
        return b"semantics-lint" in raw or b"semantics_lint" in raw
    tool = document.get("tool")
    return isinstance(tool, dict) and (TABLE in tool or MISSPELLED_TABLE in tool)


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
        elif spec.kind == "globs":
            _check_globs(where, strings)
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
    _check_globs(where, value)
    for glob, codes in value.items():
        codes = _string_list(f"{where} {glob!r}", codes)
        entries.append((glob, check_selectors(codes, f"{where} {glob!r}")))
    return tuple(entries)


def _check_globs(where: str, globs: Iterable[str]) -> None:
    from semantics_lint.lint.run.globs import glob_error

    for glob in globs:
        error = glob_error(glob)
        if error is not None:
            raise ConfigError(f"{where}: {glob!r} is not a glob git can read ({error})")


def _describe(value: Any) -> str:
    if isinstance(value, list):
        kinds = sorted({type(item).__name__ for item in value})
        return f"a list of {', '.join(kinds)}" if kinds else "an empty list"
    return f"{type(value).__name__} {value!r}"


def find_config_file(start: Path) -> Path | None:
    """The closest ``pyproject.toml`` with our table, from ``start`` (a folder) upwards
    (one that cannot be read is passed over here: :class:`ConfigResolver` reports it)."""
    for folder in (start, *start.parents):
        candidate = folder / PYPROJECT
        if has_table(candidate):
            return candidate
    return None


def default_cache_dir(paths: Sequence[str] = (), config_file: Path | None = None) -> Path:
    """Where the cache folder goes: ``$SEMANTICS_LINT_CACHE_DIR``, else the project root.

    The project root is the folder of the configuration in use: ``config_file``
    (``--config``), else the ``pyproject.toml`` that governs the first of ``paths``;
    without one, the current folder. A first path that cannot be looked into (a
    folder the user may not read) is searched from its parent: the run reports that
    path itself.
    """
    from_env = os.environ.get(CACHE_DIR_ENV)
    if from_env:
        return Path(from_env)
    if config_file is not None:
        return Path(os.path.abspath(config_file)).parent
    for argument in paths[:1]:
        start = Path(os.path.abspath(argument))
        for folder in (start, start.parent):
            try:
                found = find_config_file(folder if folder.is_dir() else folder.parent)
            except OSError:
                continue
            if found is not None:
                return found.parent
            break
    return Path(".")


class ConfigResolver:
    """Which configuration governs which folder; each file is read once.

    With ``explicit`` set (``--config``), that configuration governs everything.

    A ``pyproject.toml`` that is there but cannot be read (a FIFO, a device, a link
    to one, larger than ``reading.MAX_SETTINGS_BYTES``, no permission) is never
    opened in a way that can block; the search goes on above it as if it were absent,
    and it is listed in ``unread`` (path: why) for the run to report as an error.
    """

    __slots__ = ("explicit", "_by_folder", "_by_file", "unread")

    def __init__(self, explicit: Config | None = None) -> None:
        self.explicit = explicit
        self._by_folder: dict[Path, Config] = {}
        self._by_file: dict[Path, Config] = {}
        self.unread: dict[Path, str] = {}

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
            found = probe(candidate)
            if isinstance(found, OSError):
                self.unread.setdefault(candidate, str(found))
            elif found is not None:
                config = self._by_file.get(candidate) or load_config(candidate, found)
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


def resolver_for(config_file: Path | None) -> ConfigResolver:
    """The resolver for a run: the closest configurations, or the ``--config`` file.

    Raises :class:`ConfigError` for a ``--config`` file that does not exist or has no
    ``[tool.semantics-lint]`` table.
    """
    if config_file is None:
        return ConfigResolver()
    if not os.path.lexists(config_file):
        raise ConfigError(f"{config_file}: no such configuration file")
    return ConfigResolver(explicit=load_config(config_file.resolve()))
