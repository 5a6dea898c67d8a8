"""Which files a walk finds: skipped folders, virtual environments, .gitignore, excludes."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from semantics_lint.lint.run.config import ConfigResolver
from semantics_lint.lint.run.discovery import DiscoveryError, discover
from semantics_lint.lint.run.globs import compile_globs
from semantics_lint.lint.run.ignore_files import is_gitignored, parse_gitignore


def touch(path: Path, text: str = "x = 1\n") -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def names(tmp_path: Path, arguments: list[str] | None = None, **kwargs: object) -> list[str]:
    old = os.getcwd()
    os.chdir(tmp_path)
    try:
        found = discover(arguments or ["."], ConfigResolver(), **kwargs)  # type: ignore[arg-type]
    finally:
        os.chdir(old)
    return [source.display for source in found]


def test_walk_skips_vcs_venvs_caches_and_build_output(tmp_path: Path) -> None:
    touch(tmp_path / "tools" / "a.py")
    touch(tmp_path / "tools" / "b.pyi")
    touch(tmp_path / "tools" / "notes.txt")
    for skipped in (
        ".git",
        ".venv",
        "venv",
        ".tox",
        "node_modules",
        "__pycache__",
        "build",
        "dist",
    ):
        touch(tmp_path / skipped / "x.py")
    touch(tmp_path / "env3" / "pyvenv.cfg", "home = /usr\n")
    touch(tmp_path / "env3" / "lib" / "site.py")
    assert names(tmp_path) == ["tools/a.py", "tools/b.pyi"]


def test_explicit_files_are_taken_as_given(tmp_path: Path) -> None:
    touch(tmp_path / "build" / "gen.py")
    touch(tmp_path / "script")
    assert names(tmp_path, ["build/gen.py", "script"]) == ["build/gen.py", "script"]


def test_missing_path_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(DiscoveryError, match="nope.py: no such file or directory"):
        names(tmp_path, ["nope.py"])


def test_a_file_reached_twice_is_listed_once(tmp_path: Path) -> None:
    touch(tmp_path / "pkg" / "a.py")
    assert names(tmp_path, ["pkg", "pkg/a.py", "."]) == ["pkg/a.py"]


def test_gitignore_in_a_work_tree(tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()
    touch(tmp_path / ".gitignore", "generated/\n*_pb2.py\n/top_only.py\n!keep_pb2.py\n# comment\n")
    touch(tmp_path / "generated" / "g.py")
    touch(tmp_path / "pkg" / "m_pb2.py")
    touch(tmp_path / "pkg" / "keep_pb2.py")
    touch(tmp_path / "top_only.py")
    touch(tmp_path / "pkg" / "top_only.py")
    touch(tmp_path / "pkg" / "ok.py")
    touch(tmp_path / "pkg" / ".gitignore", "local.py\n")
    touch(tmp_path / "pkg" / "local.py")
    assert names(tmp_path) == ["pkg/keep_pb2.py", "pkg/ok.py", "pkg/top_only.py"]
    # Walking a subfolder still honours the work tree's top .gitignore.
    assert names(tmp_path, ["pkg"]) == ["pkg/keep_pb2.py", "pkg/ok.py", "pkg/top_only.py"]
    assert "generated/g.py" in names(tmp_path, respect_gitignore=False)


def test_info_exclude_is_read(tmp_path: Path) -> None:
    touch(tmp_path / ".git" / "info" / "exclude", "scratch.py\n")
    touch(tmp_path / "scratch.py")
    touch(tmp_path / "real.py")
    assert names(tmp_path) == ["real.py"]


def test_gitignore_lines_git_cannot_read_match_nothing_and_the_rest_still_apply() -> None:
    # git takes "!" alone, a trailing backslash and a reversed range as matching nothing.
    ignore_file = parse_gitignore("/repo", "!\na\\\n[z-a].py\n*.tmp\n")
    assert ignore_file is not None
    assert is_gitignored("/repo/x.tmp", False, [ignore_file])
    assert not is_gitignored("/repo/x.py", False, [ignore_file])
    assert not is_gitignored("/repo/a\\", False, [ignore_file])


def test_gitignore_patterns() -> None:
    ignore_file = parse_gitignore("/repo", "docs/**/*.py\n**/fixtures\nlogs/\n\\#odd.py\n")
    assert ignore_file is not None
    stack = [ignore_file]
    assert is_gitignored("/repo/docs/a/b/c.py", False, stack)
    assert is_gitignored("/repo/docs/c.py", False, stack)
    assert is_gitignored("/repo/x/fixtures", True, stack)
    assert is_gitignored("/repo/logs", True, stack)
    assert not is_gitignored("/repo/logs", False, stack)  # "logs/" is for folders
    assert is_gitignored("/repo/#odd.py", False, stack)
    assert not is_gitignored("/repo/src/c.py", False, stack)
    assert not is_gitignored("/elsewhere/docs/c.py", False, stack)


def test_a_deeper_gitignore_overrides_a_shallower_one() -> None:
    outer = parse_gitignore("/repo", "*_pb2.py\n")
    inner = parse_gitignore("/repo/pkg", "!keep_pb2.py\n")
    assert outer is not None and inner is not None
    assert is_gitignored("/repo/pkg/x_pb2.py", False, [outer, inner])
    assert not is_gitignored("/repo/pkg/keep_pb2.py", False, [outer, inner])
    assert parse_gitignore("/repo", "# only a comment\n\n") is None


def test_config_exclude_and_extend_exclude(tmp_path: Path) -> None:
    touch(
        tmp_path / "pyproject.toml",
        '[tool.semantics-lint]\nexclude = ["legacy/*.py"]\nextend-exclude = ["*_gen.py", "fixtures"]\n',
    )
    touch(tmp_path / "legacy" / "old.py")
    touch(tmp_path / "legacy" / "deep" / "older.py")
    touch(tmp_path / "a_gen.py")
    touch(tmp_path / "pkg" / "fixtures" / "f.py")
    touch(tmp_path / "pkg" / "real.py")
    # exclude replaces the default list, so build/ is walked now.
    touch(tmp_path / "build" / "b.py")
    assert names(tmp_path) == ["build/b.py", "legacy/deep/older.py", "pkg/real.py"]


def test_exclude_is_relative_to_the_configuration_file(tmp_path: Path) -> None:
    touch(
        tmp_path / "proj" / "pyproject.toml",
        '[tool.semantics-lint]\nextend-exclude = ["gen/*.py"]\n',
    )
    touch(tmp_path / "proj" / "gen" / "a.py")
    touch(tmp_path / "proj" / "pkg" / "gen" / "b.py")
    assert names(tmp_path, ["proj"]) == ["proj/pkg/gen/b.py"]


def test_globs() -> None:
    def matches(pattern: str, relative: str, is_dir: bool = False) -> bool:
        return compile_globs((pattern,), "/root").matches(f"/root/{relative}", is_dir)

    assert matches("*_pb2.py", "a/b/x_pb2.py")
    assert matches("tests/*", "tests/sub/x.py")
    assert matches("tests/**/*.py", "tests/x.py")
    assert not matches("tests/*.py", "src/tests.py")
    assert not matches("tests/*.py", "src/tests/x.py")  # a glob with "/" is anchored
    assert matches("gen?", "gen1/x.py")
    assert matches("[ab].py", "a.py") and not matches("[!ab].py", "a.py")
    assert matches("./legacy", "legacy/old.py")
    assert matches("build", "pkg/build", is_dir=True)  # a plain name, at any depth
    assert not matches("build", "pkg/builder.py")


def test_globs_outside_their_root_match_names_only() -> None:
    globs = compile_globs(("generated", "legacy/*.py"), "/root")
    assert globs.matches("/elsewhere/generated/a.py", outside="generated/a.py")
    assert not globs.matches("/elsewhere/legacy/a.py", outside="legacy/a.py")
    # Folders above the path as given do not count.
    assert not globs.matches("/generated/proj/a.py", outside="proj/a.py")


def test_gitignore_matcher_agrees_with_git(tmp_path: Path) -> None:
    import shutil
    import subprocess

    git = shutil.which("git")
    if git is None:
        pytest.skip("git is not installed")
    subprocess.run([git, "init", "-q", str(tmp_path)], check=True)
    touch(
        tmp_path / ".gitignore",
        "\n".join(
            [
                "*.gen.py",
                "/rooted.py",
                "out/",
                "docs/**/conf.py",
                "**/fixtures/*.py",
                "!fixtures/keep.py",
                "a?c.py",
                "[xy]_*.py",
                "deep/*/skip.py",
                "trailing.py   ",
            ]
        )
        + "\n",
    )
    touch(tmp_path / "pkg" / ".gitignore", "local_only.py\n/anchored_here.py\n")
    files = [
        "m.gen.py",
        "pkg/m.gen.py",
        "rooted.py",
        "pkg/rooted.py",
        "out/o.py",
        "pkg/out/o.py",
        "docs/conf.py",
        "docs/a/b/conf.py",
        "fixtures/f.py",
        "pkg/fixtures/f.py",
        "fixtures/keep.py",
        "abc.py",
        "abbc.py",
        "x_1.py",
        "z_1.py",
        "deep/one/skip.py",
        "deep/one/two/skip.py",
        "trailing.py",
        "pkg/local_only.py",
        "local_only.py",
        "pkg/anchored_here.py",
        "pkg/sub/anchored_here.py",
        "ok.py",
    ]
    for name in files:
        touch(tmp_path / name)
    checked = subprocess.run(
        [git, "-C", str(tmp_path), "check-ignore", "--no-index", "--stdin"],
        input="\n".join(files) + "\n",
        capture_output=True,
        text=True,
        check=False,
    )
    ignored_by_git = set(checked.stdout.split())
    assert len(ignored_by_git) >= 12  # the patterns above do ignore things
    found = set(names(tmp_path))
    assert found == set(files) - ignored_by_git


def test_absolute_exclude_glob(tmp_path: Path) -> None:
    generated = tmp_path / "gen"
    touch(
        tmp_path / "pyproject.toml",
        f'[tool.semantics-lint]\nextend-exclude = ["{generated.as_posix()}"]\n',
    )
    touch(generated / "a.py")
    touch(tmp_path / "b.py")
    assert names(tmp_path) == ["b.py"]


def test_a_folder_named_explicitly_is_walked_even_when_excluded(tmp_path: Path) -> None:
    touch(
        tmp_path / "pyproject.toml",
        '[tool.semantics-lint]\nextend-exclude = ["testdata", "tools/gen", "*_pb2.py"]\n',
    )
    touch(tmp_path / "testdata" / "sub" / "a.py")
    touch(tmp_path / "testdata" / "sub" / "build" / "b.py")  # the default exclude still applies
    touch(tmp_path / "testdata" / "sub" / "c_pb2.py")
    touch(tmp_path / "tools" / "gen" / "inner" / "d.py")
    touch(tmp_path / "tools" / "e.py")
    assert names(tmp_path) == ["tools/e.py"]
    assert names(tmp_path, ["testdata/sub"]) == ["testdata/sub/a.py"]
    assert names(tmp_path, ["tools/gen/inner"]) == ["tools/gen/inner/d.py"]
    assert names(tmp_path, ["tools"]) == ["tools/e.py"]
