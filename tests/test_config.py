"""``[tool.semantics-lint]``: discovery, parsing, and errors that name file and key."""

from __future__ import annotations

from pathlib import Path

import pytest

from semantics_lint.lint.run.config import (
    CONFIG_KEYS,
    ConfigError,
    ConfigResolver,
    find_config_file,
    load_config,
)


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def test_every_key_is_parsed(tmp_path: Path) -> None:
    pyproject = write(
        tmp_path / "pyproject.toml",
        """
[tool.semantics-lint]
select = ["SEM1", "SEM103"]
extend-select = ["SEM104"]
ignore = ["SEM105"]
per-file-ignores = { "tests/*" = ["SEM1"], "legacy.py" = ["SEM103"] }
exclude = ["generated"]
extend-exclude = ["*_pb2.py"]
api-modules = ["company.tools"]
call-names = ["make_result"]
""",
    )
    config = load_config(pyproject)
    assert config.path == pyproject
    assert config.root == tmp_path
    assert config.select == ("SEM1", "SEM103")
    assert config.extend_select == ("SEM104",)
    assert config.ignore == ("SEM105",)
    assert config.per_file_ignores == (("tests/*", ("SEM1",)), ("legacy.py", ("SEM103",)))
    assert config.exclude == ("generated",)
    assert config.extend_exclude == ("*_pb2.py",)
    assert config.api_modules == ("company.tools",)
    assert config.call_names == ("make_result",)
    assert set(CONFIG_KEYS) == {
        "select",
        "extend-select",
        "ignore",
        "per-file-ignores",
        "exclude",
        "extend-exclude",
        "api-modules",
        "call-names",
    }


@pytest.mark.parametrize(
    ("body", "named"),
    [
        ("selct = ['SEM1']", "selct"),
        ("select = 'SEM1'", "select"),
        ("ignore = [102]", "ignore"),
        ("select = ['E501']", "select"),
        ("select = ['SEM9']", "select"),
        ("exclude = 'build'", "exclude"),
        ("per-file-ignores = ['x']", "per-file-ignores"),
        ("per-file-ignores = { 'x.py' = 'SEM1' }", "per-file-ignores"),
        ("api-modules = [1]", "api-modules"),
        ("call-names = true", "call-names"),
        # Globs git cannot read: a lone "!", a trailing backslash, a reversed range.
        ("exclude = ['!']", "exclude"),
        ("extend-exclude = ['build/', 'gen\\']", "extend-exclude"),
        ("extend-exclude = ['[z-a].py']", "extend-exclude"),
        ("per-file-ignores = { '!' = ['SEM1'] }", "per-file-ignores"),
    ],
)
def test_mistakes_name_the_file_and_the_key(tmp_path: Path, body: str, named: str) -> None:
    pyproject = write(tmp_path / "pyproject.toml", f"[tool.semantics-lint]\n{body}\n")
    with pytest.raises(ConfigError) as caught:
        load_config(pyproject)
    message = str(caught.value)
    assert str(pyproject) in message
    assert named in message


def test_invalid_toml_is_an_error_naming_the_file(tmp_path: Path) -> None:
    pyproject = write(tmp_path / "pyproject.toml", "[tool.semantics-lint\nselect = [\n")
    with pytest.raises(ConfigError, match="invalid TOML") as caught:
        load_config(pyproject)
    assert str(pyproject) in str(caught.value)


def test_toml_nested_too_deeply_is_an_error_naming_the_file(tmp_path: Path) -> None:
    # tomllib recurses once per nested array: past the interpreter's limit it raises
    # RecursionError, which the run reports as a configuration error.
    body = "[tool.semantics-lint]\nselect = " + "[" * 2000 + "]" * 2000 + "\n"
    pyproject = write(tmp_path / "pyproject.toml", body)
    with pytest.raises(ConfigError, match="nested too deeply") as caught:
        load_config(pyproject)
    assert str(pyproject) in str(caught.value)
    # Found while searching upwards too, not only when named.
    (tmp_path / "pkg").mkdir()
    with pytest.raises(ConfigError, match="nested too deeply"):
        ConfigResolver().for_file(tmp_path / "pkg" / "m.py")


def test_pyproject_without_the_table_is_skipped(tmp_path: Path) -> None:
    outer = write(tmp_path / "pyproject.toml", "[tool.semantics-lint]\nignore = ['SEM103']\n")
    write(tmp_path / "pkg" / "pyproject.toml", "[project]\nname = 'pkg'\n")
    (tmp_path / "pkg" / "sub").mkdir()
    assert find_config_file(tmp_path / "pkg" / "sub") == outer


def test_closest_configuration_wins(tmp_path: Path) -> None:
    write(tmp_path / "pyproject.toml", "[tool.semantics-lint]\nignore = ['SEM103']\n")
    inner = write(tmp_path / "pkg" / "pyproject.toml", "[tool.semantics-lint]\nignore = ['SEM102']\n")
    resolver = ConfigResolver()
    assert resolver.for_file(tmp_path / "pkg" / "m.py").path == inner
    assert resolver.for_file(tmp_path / "pkg" / "m.py").ignore == ("SEM102",)
    assert resolver.for_file(tmp_path / "m.py").ignore == ("SEM103",)


def test_no_configuration_means_defaults(tmp_path: Path) -> None:
    resolver = ConfigResolver()
    config = resolver.for_file(tmp_path / "m.py")
    assert config.select is None and config.ignore == ()


def test_explicit_configuration_governs_everything(tmp_path: Path) -> None:
    write(tmp_path / "pyproject.toml", "[tool.semantics-lint]\nignore = ['SEM103']\n")
    explicit = load_config(
        write(tmp_path / "other" / "cfg.toml", "[tool.semantics-lint]\nignore = ['SEM102']\n")
    )
    resolver = ConfigResolver(explicit=explicit)
    assert resolver.for_file(tmp_path / "m.py").ignore == ("SEM102",)


def test_invalid_toml_in_a_pyproject_that_names_us_is_reported_not_skipped(tmp_path: Path) -> None:
    write(tmp_path / "pyproject.toml", "[tool.semantics-lint]\nselect = [\n")
    with pytest.raises(ConfigError, match="invalid TOML"):
        ConfigResolver().for_file(tmp_path / "m.py")
