"""One file's work: read it, prefilter it, lint or fix it, and never raise.

A :class:`Job` is everything a worker process needs for one file (all picklable);
:func:`run_job` turns it into a :class:`FileOutcome`, in-process or in a worker of
the pool (``pool.py``). The engine's findings are filtered by the selected codes and
by ``# noqa`` in the same step, so fixes never touch a suppressed finding; the same
step reports SEM002, the ``# noqa`` comments that suppressed nothing (for a file the
prefilter rules out too: no code of ours can fire there). Whatever goes wrong on a
file (an exception in a rule) becomes a SEM001 finding for it.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Literal, NamedTuple

from semantics_lint.lint.core.settings import might_contain_calls
from semantics_lint.lint.run.config import known_codes, registered_codes
from semantics_lint.reading import MAX_SOURCE_BYTES, Unreadable, read_regular

if TYPE_CHECKING:  # pragma: no cover - typing only
    from semantics_lint.lint.core.model import Finding
    from semantics_lint.lint.core.settings import LintSettings
    from semantics_lint.lint.engine import Linted
    from semantics_lint.lint.resolve import ProjectCache

Mode = Literal["lint", "fix", "diff"]
"""What a job does: report findings, fix and report what remains, or fix for a diff."""
CRASH_CODE = "SEM001"


class FileOutcome:
    """What happened to one file (filled in as the job goes; picklable).

    ``linted``: False when the file was not linted: it could not be read, or the
    prefilter found no call of ours in it. ``self_contained``: True when the findings
    came from the file alone: linted (not fixed), without a failure, and without
    asking about any other module; only such findings are cached. ``other_files``:
    True when the lint (not a fix) asked about another module of the project.
    ``read_error``: why the file could not be read (it was not linted), or None.
    ``diff``: with ``--diff``, the unified diff of the fix (made where the texts are).
    """

    __slots__ = (
        "display",
        "findings",
        "applied",
        "fixed_source",
        "original",
        "fix_error",
        "internal_error",
        "linted",
        "self_contained",
        "other_files",
        "read_error",
        "diff",
    )

    def __init__(
        self,
        display: str,
        findings: list[Finding] | None = None,
        *,
        applied: int = 0,
        fixed_source: bytes | None = None,
        original: bytes | None = None,
        fix_error: str | None = None,
        internal_error: bool = False,
        linted: bool = True,
        self_contained: bool = False,
        other_files: bool = False,
        read_error: str | None = None,
    ) -> None:
        self.display = display
        self.findings: list[Finding] = [] if findings is None else findings
        self.applied = applied
        self.fixed_source = fixed_source
        self.original = original
        self.fix_error = fix_error
        self.internal_error = internal_error
        self.linted = linted
        self.self_contained = self_contained
        self.other_files = other_files
        self.read_error = read_error
        self.diff: str | None = None


class Job(NamedTuple):
    """One file's work, sent to a worker: everything is picklable.

    ``source`` None means the file has not been read yet: whoever runs the job reads
    ``path`` and puts it through the prefilter first (see :func:`run_job`).
    """

    display: str
    source: bytes | None
    settings: LintSettings
    mode: Mode
    unsafe: bool
    path: str | None = None


def _filtered_linter(
    codes: frozenset[str], project: ProjectCache | None, source: bytes
) -> Callable[[str | Finding, str, LintSettings | None], Linted]:
    """``engine.lint_decoded`` with the selected codes and ``# noqa`` applied, for the
    text of ``source`` (as ``source.decode`` gives it) or a fixed text of it: the
    text is decoded once by the caller, and the prefilter has passed it. ``project``
    is the run's cache of other modules, or None for one of the file's own."""
    from semantics_lint.lint import engine
    from semantics_lint.lint.core.model import Finding
    from semantics_lint.lint.core.source import readable_text
    from semantics_lint.lint.run.suppress import UNUSED_NOQA_CODE, apply_noqa, filter_noqa

    unused = UNUSED_NOQA_CODE in codes

    def lint(text: str | Finding, filename: str, settings: LintSettings | None) -> Linted:
        raw, other_files = engine.lint_decoded(
            text, filename, settings or engine.LintSettings(), project=project
        )
        findings = [f for f in raw if f.code in codes]
        if unused or findings:
            # Bytes that cannot be decoded are read for noqa comments as near as can be.
            shown = readable_text(source) if isinstance(text, Finding) else text
            if unused and _may_list_our_codes(shown):
                findings = apply_noqa(shown, findings, codes, filename)
            elif findings:
                findings = filter_noqa(shown, findings)
        return engine.Linted(findings, other_files)

    return lint


def _may_list_our_codes(source: bytes | str) -> bool:
    """False when ``source`` (bytes, or the text) provably holds no ``# noqa`` comment
    naming a code of ours."""
    if isinstance(source, str):
        return "SEM" in source and "noqa" in source.lower()
    return b"SEM" in source and b"noqa" in source.lower()


def unused_noqa_only(source: bytes, display: str, codes: frozenset[str]) -> list[Finding]:
    """SEM002 for a file with no finding of its own (one the prefilter ruled out)."""
    if not _may_list_our_codes(source):
        return []  # the usual case: noqa handling (and tokenize) is not imported
    from semantics_lint.lint.core.source import text_of
    from semantics_lint.lint.run.suppress import UNUSED_NOQA_CODE, apply_noqa

    if UNUSED_NOQA_CODE not in codes:
        return []
    return apply_noqa(text_of(source), [], codes, display)


def crash_finding(display: str, what: str) -> Finding:
    """The finding that stands for a file the linter itself failed on."""
    from semantics_lint.lint.core.model import Finding, Position, Severity

    return Finding(
        code=CRASH_CODE,
        message=(
            f"internal error: the linter failed on this file ({what}); "
            "other files were linted; please report this with the file"
        ),
        severity=Severity.ERROR,
        filename=display,
        start=Position(1, 0),
        end=Position(1, 0),
    )


def run_job(job: Job, project: ProjectCache | None = None) -> FileOutcome:
    """Lint or fix one file. Never raises: a failure becomes a finding for the file.

    A job that carries no source is read and prefiltered here first (:func:`load`),
    as the runner does for the files it reads itself. ``project`` is the run's cache
    of other modules (``resolve.ProjectCache``); without it the file has its own.
    """
    try:
        if job.source is None:
            loaded = load(job)
            if isinstance(loaded, FileOutcome):
                return loaded
            job = loaded
        return _run_job(job, project)
    except Exception as error:  # noqa: BLE001 - one file's failure must not end the run
        outcome = FileOutcome(job.display, [crash_finding(job.display, _describe(error))])
        outcome.internal_error = True
        return outcome


def _describe(error: BaseException) -> str:
    text = str(error)
    return f"{type(error).__name__}: {text}" if text else type(error).__name__


def load(job: Job) -> Job | FileOutcome:
    """``job`` with its file's bytes, or the outcome of a file that is not linted.

    The same steps and answers wherever a file is read (the runner, a worker): an
    unreadable file is the engine's SEM001 for it (when selected), a file the
    prefilter rules out (or one with no code selected) has no findings.
    """
    assert job.path is not None, "a job without source names its file"
    codes = job.settings.enabled if job.settings.enabled is not None else known_codes()
    data = _read(Path(job.path))
    if isinstance(data, str):
        findings = [unreadable_finding(job.display, data)] if CRASH_CODE in codes else []
        return FileOutcome(job.display, findings, linted=False, read_error=data)
    if not codes or not might_contain_calls(data, job.settings):
        return FileOutcome(job.display, unused_noqa_only(data, job.display, frozenset(codes)), linted=False)
    return Job(job.display, data, job.settings, job.mode, job.unsafe, job.path)


def _run_job(job: Job, project: ProjectCache | None) -> FileOutcome:
    source = job.source
    assert source is not None, "run_job reads a job's file before it runs"
    # The file passed the prefilter: the rules are imported anyway, so every code of
    # the registry counts (a rule not generated into the vocabulary's list yet too).
    codes = job.settings.enabled if job.settings.enabled is not None else registered_codes()
    from semantics_lint.lint.core.model import Finding
    from semantics_lint.lint.core.source import Decoded, decode

    # The one decode of the file: the engine, noqa comments and the fixes all read this text.
    decoded = decode(source)
    linted = _filtered_linter(frozenset(codes), project, source)
    text = decoded if isinstance(decoded, Finding) else decoded.text
    if job.mode == "lint":
        findings, other_files = linted(text, job.display, job.settings)
        return FileOutcome(job.display, findings, self_contained=not other_files, other_files=other_files)

    def lint(text: str | Finding, filename: str, settings: LintSettings | None) -> list[Finding]:
        return linted(text, filename, settings).findings

    from semantics_lint.lint.run import fix

    try:
        result = fix.fix_decoded(source, decoded, job.display, job.settings, unsafe=job.unsafe, lint=lint)
    except fix.FixError as error:
        return FileOutcome(job.display, lint(text, job.display, job.settings), fix_error=str(error))
    outcome = FileOutcome(job.display, list(result.remaining), applied=result.applied)
    if result.changed:
        outcome.fixed_source = result.source
        outcome.original = source
        if job.mode == "diff":
            from semantics_lint.lint.run import write

            assert isinstance(decoded, Decoded) and result.text is not None
            outcome.diff = write.unified_diff(job.display, decoded.text, result.text)
    return outcome


def _read(path: Path) -> bytes | str:
    """The bytes of the regular file at ``path``, or why they cannot be read.

    Only a regular file of at most :data:`~semantics_lint.reading.MAX_SOURCE_BYTES`
    is read: a FIFO, socket or device (named on the command line, or put in a file's
    place after discovery) is refused, never opened in a way that can block, and a
    larger file is refused before it costs its size (see ``reading.py``).
    """
    try:
        return read_regular(path, MAX_SOURCE_BYTES)
    except Unreadable as error:
        return error.reason


def unreadable_finding(display: str, reason: str) -> Finding:
    """The SEM001 finding for a file that could not be read (ruff's E902)."""
    from semantics_lint.lint.core.model import Finding, Position, Severity

    return Finding(
        code=CRASH_CODE,
        message=f"cannot read the file: {reason}",
        severity=Severity.ERROR,
        filename=display,
        start=Position(1, 0),
        end=Position(1, 0),
    )
