"""The walk skips what git ignores, and only that: held to real git on generated trees.

Each tree is a fresh git repository (git's own configuration of the machine and the
user left out, so no global excludes file applies); the walk of its top must list
exactly the Python files git lists, tracked (``git ls-files``) and untracked but not
ignored (``git ls-files --others --exclude-standard``).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from semantics_lint.lint.run.config import ConfigResolver
from semantics_lint.lint.run.discovery import discover
from semantics_lint.lint.run.ignore_files import is_gitignored, parse_gitignore

GIT = shutil.which("git")
needs_git = pytest.mark.skipif(GIT is None, reason="git is not installed")
EXAMPLES = 300 if os.environ.get("CI") else 60


def git(repo: Path, *arguments: str, stdin: str | None = None) -> str:
    assert GIT is not None
    home = repo.parent / "home"
    home.mkdir(exist_ok=True)
    environment = {
        **os.environ,
        "GIT_CONFIG_NOSYSTEM": "1",
        "GIT_CONFIG_GLOBAL": os.devnull,
        "HOME": str(home),
        "XDG_CONFIG_HOME": str(home),
        "GIT_AUTHOR_NAME": "t",
        "GIT_AUTHOR_EMAIL": "t@example.com",
        "GIT_COMMITTER_NAME": "t",
        "GIT_COMMITTER_EMAIL": "t@example.com",
    }
    done = subprocess.run(
        [GIT, "-C", str(repo), "-c", "core.quotepath=off", *arguments],
        input=stdin,
        capture_output=True,
        text=True,
        check=True,
        env=environment,
    )
    return done.stdout


def walked(top: Path, argument: str = ".") -> set[str]:
    old = os.getcwd()
    os.chdir(top)
    try:
        return {source.display for source in discover([argument], ConfigResolver())}
    finally:
        os.chdir(old)


def listed_by_git(repo: Path) -> set[str]:
    tracked = git(repo, "ls-files", "-z").split("\0")
    untracked = git(repo, "ls-files", "-z", "--others", "--exclude-standard").split("\0")
    return {name for name in (*tracked, *untracked) if name.endswith((".py", ".pyi"))}


def make_tree(repo: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = repo / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


# ---------------------------------------------------------------------------
# What the walk is asked to get right, one case each
# ---------------------------------------------------------------------------

IGNORE_ALL_BUT_PYTHON = "*\n!*/\n!*.py\n"


@needs_git
def test_ignore_everything_but_python_keeps_the_python_files_in_folders(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    git(tmp_path, "init", "-q", str(repo))
    make_tree(
        repo,
        {".gitignore": IGNORE_ALL_BUT_PYTHON, "top.py": "", "sub/tool.py": "", "sub/notes.txt": ""},
    )
    assert walked(repo) == {"top.py", "sub/tool.py"} == listed_by_git(repo)


@needs_git
def test_a_folder_reincluded_by_name(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    git(tmp_path, "init", "-q", str(repo))
    make_tree(
        repo,
        {
            ".gitignore": "/gen/*\n!/gen/keep/\nout/\n!out/x.py\n",
            "gen/drop.py": "",
            "gen/keep/kept.py": "",
            "out/x.py": "",  # out/ is ignored: git never looks inside, whatever follows
            "tools/out.py": "",
        },
    )
    assert walked(repo) == {"gen/keep/kept.py", "tools/out.py"} == listed_by_git(repo)


@needs_git
def test_nested_gitignore_files_and_negations(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    git(tmp_path, "init", "-q", str(repo))
    make_tree(
        repo,
        {
            ".gitignore": "*_gen.py\ndata/\n",
            "a_gen.py": "",
            "pkg/.gitignore": "!keep_gen.py\n/local/\n",
            "pkg/keep_gen.py": "",
            "pkg/drop_gen.py": "",
            "pkg/local/x.py": "",
            "pkg/deep/local/y.py": "",
            "data/z.py": "",
        },
    )
    expected = {"pkg/keep_gen.py", "pkg/deep/local/y.py"}
    assert walked(repo) == expected == listed_by_git(repo)


@needs_git
def test_walking_a_folder_inside_an_ignored_one_lists_nothing(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    git(tmp_path, "init", "-q", str(repo))
    make_tree(repo, {".gitignore": "vendored/\n", "vendored/lib/a.py": "", "b.py": ""})
    assert walked(repo, "vendored/lib") == set()
    assert git(repo, "ls-files", "--others", "--exclude-standard", "vendored/lib") == ""
    # A file named on the command line is linted all the same, as ruff does.
    assert walked(repo, "vendored/lib/a.py") == {"vendored/lib/a.py"}


@needs_git
def test_info_exclude_of_a_linked_work_tree_is_read_from_the_common_git_folder(
    tmp_path: Path,
) -> None:
    repo = tmp_path / "repo"
    git(tmp_path, "init", "-q", str(repo))
    make_tree(repo, {"a.py": ""})
    git(repo, "add", "a.py")
    git(repo, "commit", "-q", "-m", "a")
    make_tree(repo, {".git/info/exclude": "scratch*.py\n"})
    linked = tmp_path / "linked"
    git(repo, "worktree", "add", "-q", str(linked))
    make_tree(linked, {"scratch1.py": "", "kept.py": ""})
    problems: list[object] = []
    old = os.getcwd()
    os.chdir(linked)
    try:
        found = discover(["."], ConfigResolver(), problems=problems)  # type: ignore[arg-type]
    finally:
        os.chdir(old)
    assert problems == []
    assert {source.display for source in found} == {"a.py", "kept.py"} == listed_by_git(linked)


def test_a_line_matches_the_entry_itself_not_what_a_folder_holds() -> None:
    # Whether a folder's contents are skipped is the walk's business (it does not enter
    # an ignored folder); a line about a folder says nothing of a file inside it.
    ignore_file = parse_gitignore("/repo", "*\n!*/\n!*.py\nlogs/\n")
    assert ignore_file is not None
    assert not is_gitignored("/repo/sub", True, [ignore_file])
    assert not is_gitignored("/repo/sub/tool.py", False, [ignore_file])
    assert is_gitignored("/repo/sub/notes.txt", False, [ignore_file])
    assert is_gitignored("/repo/logs", True, [ignore_file])
    assert not is_gitignored("/repo/logs/a.py", False, [ignore_file])


# ---------------------------------------------------------------------------
# Generated trees, held to git
# ---------------------------------------------------------------------------

FOLDERS = ("a", "b", "sub", "keep", "a/b", "sub/a", "b/keep", "a/b/c", "a/keep", "sub/b/keep")
FILES = ("x.py", "y.py", "tool.py", "k.pyi", "notes.txt", "x_gen.py", "x1.py", "a.py")
SEGMENTS = (
    "*",
    "**",
    "a",
    "b",
    "sub",
    "keep",
    "*.py",
    "x.py",
    "?.py",
    "[xy].py",
    "s*",
    "*_gen.py",
    "k*",
    "[!x]*",
    "[a-c]*",
    "*[[:digit:]]*",
    "x\\.py",
    "a**",
    "**.py",
    "[[:alpha:]].py",
)


# Lines people write, alone or as the idioms they make together (ignore all but
# Python, a folder and its exceptions), beside random ones.
COMMON_LINES = (
    "*",
    "!*/",
    "!*.py",
    "*/",
    "!sub/",
    "a/",
    "!a/x.py",
    "/a/*",
    "!/a/keep/",
    "**/b",
    "a/**",
    "!a/**/",
    "!**/keep/**",
    "*.py",
    "!x.py",
    "sub",
    "!sub/*.py",
    "b/*/",
)
IDIOMS = (
    ("*", "!*/", "!*.py"),
    ("*", "!*/"),
    ("*", "!*.py"),
    ("a/", "!a/x.py"),
    ("/a/*", "!/a/keep/"),
    ("a/**", "!a/**/", "!a/**/*.py"),
    ("*.py", "!tool.py"),
)


@st.composite
def patterns(draw: st.DrawFn) -> str:
    if draw(st.booleans()):
        return draw(st.sampled_from(COMMON_LINES))
    parts = draw(st.lists(st.sampled_from(SEGMENTS), min_size=1, max_size=3))
    text = "/".join(parts)
    if draw(st.booleans()):
        text = "/" + text
    if draw(st.integers(0, 3)) == 0:
        text += "/"
    if draw(st.integers(0, 2)) == 0:
        text = "!" + text
    return text


@st.composite
def trees(draw: st.DrawFn) -> dict[str, str]:
    files = draw(
        st.lists(
            st.tuples(st.sampled_from(("", *FOLDERS)), st.sampled_from(FILES)),
            min_size=1,
            max_size=14,
            unique=True,
        )
    )
    tree = {f"{folder}/{name}" if folder else name: "" for folder, name in files}
    for folder in draw(st.lists(st.sampled_from(("", *FOLDERS)), max_size=3, unique=True)):
        groups = draw(
            st.lists(
                st.one_of(patterns().map(lambda line: (line,)), st.sampled_from(IDIOMS)),
                min_size=1,
                max_size=4,
            )
        )
        lines = [line for group in groups for line in group]
        tree[f"{folder}/.gitignore" if folder else ".gitignore"] = "\n".join(lines) + "\n"
    if draw(st.integers(0, 3)) == 0:
        tree[".git/info/exclude"] = "\n".join(draw(st.lists(patterns(), max_size=3))) + "\n"
    return tree


@needs_git
@settings(max_examples=EXAMPLES)
@given(tree=trees(), tracked=st.booleans())
def test_the_walk_lists_what_git_lists(tree: dict[str, str], tracked: bool) -> None:
    with tempfile.TemporaryDirectory() as folder:
        repo = Path(folder) / "repo"
        git(Path(folder), "init", "-q", str(repo))
        make_tree(repo, tree)
        if tracked:
            git(repo, "add", "-A")  # adds only what git does not ignore
        assert walked(repo) == listed_by_git(repo), tree


@needs_git
def test_a_held_out_tree(tmp_path: Path) -> None:
    """A tree written by hand, with none of the generated trees' names or lines."""
    repo = tmp_path / "repo"
    git(tmp_path, "init", "-q", str(repo))
    make_tree(
        repo,
        {
            ".gitignore": "\n".join(
                [
                    "# a project's ignores",
                    "*.log",
                    "/scratch/",
                    "generated/**",
                    "!generated/**/",
                    "!generated/**/api_*.py",
                    "**/fixtures/*",
                    "!**/fixtures/conftest.py",
                    "docs/*",
                    "!docs/examples/",
                    "secret[0-9].py",
                    "\\!bang.py",
                    "trailing.py\\ ",
                    "tmp_*/",
                ]
            )
            + "\n",
            "app/main.py": "",
            "app/secret1.py": "",
            "app/secretx.py": "",
            "!bang.py": "",
            "trailing.py ": "",
            "trailing.py": "",
            "scratch/try.py": "",
            "lib/scratch/kept.py": "",
            "generated/v1/api_users.py": "",
            "generated/v1/models.py": "",
            "generated/api_root.py": "",
            "tests/fixtures/conftest.py": "",
            "tests/fixtures/data.py": "",
            "tests/unit/fixtures/sample.py": "",
            "docs/conf.py": "",
            "docs/examples/demo.py": "",
            "tmp_work/a.py": "",
            "tmp_work.py": "",
            "tools/.gitignore": "*\n!*.py\n!*/\nlegacy/\n",
            "tools/run.py": "",
            "tools/README": "",
            "tools/legacy/old.py": "",
            "tools/nested/deeper/cli.py": "",
            "tools/nested/.gitignore": "!legacy/\ncli.py\n",
            "tools/nested/legacy/back.py": "",
        },
    )
    git(repo, "add", "app/main.py", "tools/run.py")
    git(repo, "commit", "-q", "-m", "start")
    found = walked(repo)
    assert found == listed_by_git(repo)
    assert found == {
        "app/main.py",
        "app/secretx.py",
        "trailing.py",
        "lib/scratch/kept.py",
        "generated/v1/api_users.py",
        "generated/api_root.py",
        "tests/fixtures/conftest.py",
        "docs/examples/demo.py",
        "tmp_work.py",
        "tools/run.py",
        "tools/nested/legacy/back.py",
    }
