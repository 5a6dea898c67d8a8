"""The pre-commit hooks, end to end, through the real ``pre-commit``.

The manifest is validated with ``pre-commit validate-manifest`` (fast). The
``integration`` tests build a throwaway git repository holding a defective tool
module and catalogs, then run this checkout's hooks on it:

* the ``semantics-lint`` hook, as ``pre-commit try-repo <checkout> semantics-lint
  --all-files`` runs it, fails on the defect (and skips the file the project's
  configuration excludes);
* the same hook with ``args: [--fix]`` rewrites the file (and so fails that run), and
  the next run passes;
* the ``check-semantics`` hook fails on a catalog that breaks the gate, beside a good
  one, gives one report for seven catalogs, and passes once the broken one is gone.

The hooks' environment is built once, from the checkout, for the whole module.

pre-commit installs the hook into its own virtual environment from this checkout,
with the dependencies from PyPI, so these tests need the network and take a while.
Like ``try-repo`` itself, they use the checkout's HEAD plus its uncommitted changes to
tracked files. ``-m "not integration"`` skips them.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from conformance_data import CONFORMANCE_DIR

ROOT = Path(__file__).resolve().parent.parent
MANIFEST = ROOT / ".pre-commit-hooks.yaml"
TIMEOUT = 900  # seconds: a first run builds a virtual environment from PyPI

requires_pre_commit = pytest.mark.skipif(
    importlib.util.find_spec("pre_commit") is None,
    reason="pre-commit is not installed (it is in the test extras: pip install -e '.[test]')",
)

DEFECTIVE_TOOL = '''\
"""A tool whose provenance spells a field in snake_case."""

from semantics_lint.runtime import described_result


def backup_status(export, vm):
    return described_result(
        facts=[{"entity": vm, "backed_up": True}],
        provenance={
            "measured_at": export.exported_at,  # the export's own timestamp
            "source": export.source,
        },
    )
'''


def _pre_commit(*args: str, cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pre_commit", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
    )


def _git(*args: str, cwd: Path) -> str:
    result = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, check=True, timeout=120)
    return result.stdout.strip()


def _catalog(case_id: str) -> str:
    cases = json.loads((CONFORMANCE_DIR / "cli.json").read_text(encoding="utf-8"))
    (catalog,) = [case["input"]["catalog"] for case in cases if case["id"] == case_id]
    return json.dumps(catalog, indent=2) + "\n"


# pre-commit runs a hook that is not require_serial in one process per batch of files,
# a batch per job once there are more than four files. TRAVIS (as pre-commit reads it)
# makes the jobs two on any machine, so seven catalogs would be two batches, two
# processes and two reports.
SEVEN_CATALOGS = 7
TWO_JOBS = {"TRAVIS": "true"}


def _seven_catalogs(project: Path) -> None:
    """Six catalogs that pass the gate beside the project's own, one of them broken."""
    folder = project / "catalogs"
    folder.mkdir()
    for number in range(SEVEN_CATALOGS - 2):
        good = folder / f"semantics-catalog-{number}.json"
        good.write_text(_catalog("cli/single-shape/001"), encoding="utf-8")
    broken = folder / "semantics-catalog-nightly.json"
    broken.write_text(_catalog("cli/catalog-sample/001"), encoding="utf-8")
    _git("add", "-A", cwd=project)


def _reports(output: str) -> list[str]:
    """The catalog count on the first line of each check-semantics report printed."""
    return re.findall(r"^check-semantics: (\d+) catalogs", output, re.MULTILINE)


@requires_pre_commit
def test_manifest_is_valid() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "pre_commit", "validate-manifest", str(MANIFEST)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_manifest_entries_are_console_scripts_of_this_package() -> None:
    import yaml

    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - Python 3.10
        import tomli as tomllib

    hooks = {hook["id"]: hook for hook in yaml.safe_load(MANIFEST.read_text(encoding="utf-8"))}
    assert set(hooks) == {"semantics-lint", "check-semantics"}
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["scripts"]
    for hook in hooks.values():
        assert hook["language"] == "python"
        assert hook["entry"].split()[0] in scripts
    assert hooks["semantics-lint"]["entry"] == "semantics-lint check --force-exclude"
    # Stubs too, as the command line lints them; one process, so one summary.
    assert hooks["semantics-lint"]["types_or"] == ["python", "pyi"]
    assert "types" not in hooks["semantics-lint"]
    assert hooks["semantics-lint"]["require_serial"] is True
    # One report for every catalog of a run (test_the_gate_hook_gives_one_report_...).
    assert hooks["check-semantics"]["require_serial"] is True
    assert hooks["check-semantics"]["types"] == ["json"]
    pattern = re.compile(hooks["check-semantics"]["files"])
    assert pattern.search("semantics-catalog.json")
    assert pattern.search("ci/semantics-catalog-nightly.json")
    assert not pattern.search("package.json")


# ---------------------------------------------------------------------------
# Integration: the real pre-commit on a throwaway repository
# ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def hook_source(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, str]:
    """The repository and revision pre-commit installs the hooks from.

    ``try-repo`` without ``--ref`` clones HEAD plus the uncommitted changes of tracked
    files into a shadow repository; doing that once here lets every run of this module
    share one revision (and, for ``pre-commit run``, one installed environment).
    """
    if not (ROOT / ".git").exists():
        pytest.skip("the checkout is not a git repository; pre-commit needs one to clone")
    try:
        from pre_commit.commands.try_repo import _repo_ref
    except ImportError:  # a pre-commit without the helper: HEAD alone
        return str(ROOT), _git("rev-parse", "HEAD", cwd=ROOT)
    return _repo_ref(str(tmp_path_factory.mktemp("shadow")), str(ROOT), None)


@pytest.fixture(scope="module")
def pre_commit_env(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    env = dict(os.environ)
    env["PRE_COMMIT_HOME"] = str(tmp_path_factory.mktemp("pre-commit-home"))
    env.pop("PRE_COMMIT_ALLOW_NO_CONFIG", None)
    # The throwaway repository commits with an identity of its own.
    env.update(
        GIT_AUTHOR_NAME="semantics-lint tests",
        GIT_AUTHOR_EMAIL="tests@semantics-lint.invalid",
        GIT_COMMITTER_NAME="semantics-lint tests",
        GIT_COMMITTER_EMAIL="tests@semantics-lint.invalid",
    )
    return env


@pytest.fixture
def project(tmp_path: Path) -> Iterator[Path]:
    repo = tmp_path / "project"
    (repo / "tools").mkdir(parents=True)
    _git("init", "-q", cwd=repo)
    (repo / "tools" / "backup.py").write_text(DEFECTIVE_TOOL, encoding="utf-8")
    (repo / "semantics-catalog.json").write_text(_catalog("cli/single-shape/001"), encoding="utf-8")
    # Excluded by the project's configuration: pre-commit names it, the hook skips it.
    (repo / "generated").mkdir()
    (repo / "generated" / "old_tool.py").write_text(DEFECTIVE_TOOL, encoding="utf-8")
    (repo / "pyproject.toml").write_text(
        '[tool.semantics-lint]\nextend-exclude = ["generated"]\n', encoding="utf-8"
    )
    _git("add", "-A", cwd=repo)
    yield repo


def _config(tmp_path: Path, repo: str, rev: str, hook: str, args: list[str]) -> Path:
    config = tmp_path / "pre-commit-config.yaml"
    config.write_text(
        json.dumps(  # JSON is YAML
            {"repos": [{"repo": repo, "rev": rev, "hooks": [{"id": hook, "args": args}]}]},
            indent=2,
        ),
        encoding="utf-8",
    )
    return config


@pytest.mark.integration
@pytest.mark.slow
@pytest.mark.xdist_group("pre-commit")
@requires_pre_commit
def test_lint_hook_fails_then_fixes_then_passes(
    project: Path, tmp_path: Path, hook_source: tuple[str, str], pre_commit_env: dict[str, str]
) -> None:
    repo, rev = hook_source
    tool = project / "tools" / "backup.py"

    # What ``try-repo`` runs (the shadow repository hook_source made, the hook with no
    # arguments), through ``run``: try-repo builds the hook's environment again from
    # PyPI on every call, in a store of its own, while ``run`` builds it once here for
    # every test of this module.
    plain = _config(tmp_path, repo, rev, "semantics-lint", [])
    tried = _pre_commit("run", "--all-files", "--config", str(plain), cwd=project, env=pre_commit_env)
    output = tried.stdout + tried.stderr
    assert tried.returncode == 1, output
    assert "SEM102" in output and "tools/backup.py" in output, output
    assert "old_tool.py" not in output, output
    assert tool.read_text(encoding="utf-8") == DEFECTIVE_TOOL

    config = _config(tmp_path, repo, rev, "semantics-lint", ["--fix"])
    fixed = _pre_commit("run", "--all-files", "--config", str(config), cwd=project, env=pre_commit_env)
    assert fixed.returncode == 1, fixed.stdout + fixed.stderr  # the hook modified a file
    assert tool.read_text(encoding="utf-8") == DEFECTIVE_TOOL.replace('"measured_at"', '"measuredAt"')
    excluded = project / "generated" / "old_tool.py"
    assert excluded.read_text(encoding="utf-8") == DEFECTIVE_TOOL

    _git("add", "-A", cwd=project)
    again = _pre_commit("run", "--all-files", "--config", str(config), cwd=project, env=pre_commit_env)
    assert again.returncode == 0, again.stdout + again.stderr


@pytest.mark.integration
@pytest.mark.slow
@pytest.mark.xdist_group("pre-commit")
@requires_pre_commit
def test_gate_hook_fails_on_a_broken_catalog(
    project: Path, tmp_path: Path, hook_source: tuple[str, str], pre_commit_env: dict[str, str]
) -> None:
    repo, rev = hook_source
    broken = project / "ci" / "semantics-catalog-nightly.json"
    broken.parent.mkdir()
    broken.write_text(_catalog("cli/catalog-sample/001"), encoding="utf-8")
    (project / "package.json").write_text('{"not": "a catalog"}\n', encoding="utf-8")
    _git("add", "-A", cwd=project)

    # ``pre-commit run`` with the hook from the same repository and revision: the
    # environment the lint hook's test installed serves it.
    config = _config(tmp_path, repo, rev, "check-semantics", [])
    failed = _pre_commit("run", "--all-files", "--config", str(config), cwd=project, env=pre_commit_env)
    output = failed.stdout + failed.stderr
    assert failed.returncode == 1, output
    assert "inventory-without-coverage" in output, output

    # Seven catalogs, pre-commit free to run two jobs: one process, one report.
    broken.unlink()
    _git("rm", "-q", "--cached", str(broken), cwd=project)
    _seven_catalogs(project)
    seven = _pre_commit(
        "run", "--all-files", "--config", str(config), cwd=project,
        env={**pre_commit_env, **TWO_JOBS},
    )  # fmt: skip
    output = seven.stdout + seven.stderr
    assert seven.returncode == 1, output
    assert _reports(output) == [str(SEVEN_CATALOGS)], output
    broken = project / "catalogs" / "semantics-catalog-nightly.json"

    _git("rm", "-q", "--cached", str(broken), cwd=project)
    broken.unlink()
    passed = _pre_commit("run", "--all-files", "--config", str(config), cwd=project, env=pre_commit_env)
    assert passed.returncode == 0, passed.stdout + passed.stderr


def _snippet(page: Path) -> dict:
    """The first YAML block of ``page``: a ``.pre-commit-config.yaml``."""
    import yaml

    text = page.read_text(encoding="utf-8")
    return yaml.safe_load(text.split("```yaml\n", 1)[1].split("```", 1)[0])


@pytest.mark.parametrize("page", ["README.md", "docs/integrations.md"])
def test_the_documented_hooks_run_the_manifests_commands_as_installed(page: str) -> None:
    # semantics-lint is on no package index and at no public address: the documented
    # configuration is a local repository calling the installed commands, with the
    # manifest's entries and filters.
    import yaml

    manifest = {hook["id"]: hook for hook in yaml.safe_load(MANIFEST.read_text(encoding="utf-8"))}
    (repo,) = _snippet(ROOT / page)["repos"]
    assert repo["repo"] == "local" and "rev" not in repo
    for hook in repo["hooks"]:
        theirs = manifest[hook["id"]]
        assert hook["language"] == "system"
        for key in ("name", "entry", "types_or", "types", "files"):
            assert hook.get(key) == theirs.get(key), (hook["id"], key)
        assert hook.get("require_serial", False) == theirs.get("require_serial", False)
    text = (ROOT / page).read_text(encoding="utf-8")
    assert "<owner>" not in text and "github.com/" not in text
    assert "pip install semantics-lint" not in text
    assert "pre-commit try-repo ./semantics-lint semantics-lint --all-files" in text


@requires_pre_commit
def test_the_readme_hook_runs_as_written(
    project: Path, tmp_path: Path, pre_commit_env: dict[str, str]
) -> None:
    # The README's configuration, as written, in a project whose environment has the
    # command installed (this one's, first on PATH).
    config = tmp_path / "pre-commit-config.yaml"
    config.write_text(json.dumps(_snippet(ROOT / "README.md")), encoding="utf-8")
    env = {
        **pre_commit_env,
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{pre_commit_env['PATH']}",
    }
    ran = _pre_commit("run", "--all-files", "--config", str(config), cwd=project, env=env)
    output = ran.stdout + ran.stderr
    assert ran.returncode == 1, output
    assert "tools/backup.py:10:13: SEM102" in output, output
    assert "old_tool.py" not in output, output  # --force-exclude: the project's exclude applies


@requires_pre_commit
def test_the_documented_gate_hook_gives_one_report_for_seven_catalogs(
    project: Path, tmp_path: Path, pre_commit_env: dict[str, str]
) -> None:
    # docs/integrations.md's check-semantics hook, as written, calling the command
    # installed in this environment: one run over seven catalogs is one report.
    (repo,) = _snippet(ROOT / "docs/integrations.md")["repos"]
    (hook,) = [hook for hook in repo["hooks"] if hook["id"] == "check-semantics"]
    config = tmp_path / "pre-commit-config.yaml"
    config.write_text(json.dumps({"repos": [{**repo, "hooks": [hook]}]}), encoding="utf-8")
    _seven_catalogs(project)
    path = f"{Path(sys.executable).parent}{os.pathsep}{pre_commit_env['PATH']}"
    env = {**pre_commit_env, **TWO_JOBS, "PATH": path}
    ran = _pre_commit("run", "--all-files", "--config", str(config), cwd=project, env=env)
    output = ran.stdout + ran.stderr
    assert ran.returncode == 1, output  # the nightly catalog fails the gate
    assert _reports(output) == [str(SEVEN_CATALOGS)], output
    assert output.count("inventory-without-coverage") == 1, output
