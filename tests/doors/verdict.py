"""Both doors' verdicts on one generated declaration, and what a disagreement is.

Static verdict: the linter (``lint_source``, in process) reports an E finding other
than the by-design exceptions (SEM203; SEM204 and the other warnings are W). Runtime
verdict: the mint, called on the literal values of the call's arguments, raises a
``refused:`` error. Anything else the mint raises is a crash of the runtime door; a
SEM001 finding is a crash of the static door.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from doors.gen import Call, NotLiteral, call_arguments
from semantics_lint.lint.core.model import Finding, Severity
from semantics_lint.lint.engine import lint_source
from semantics_lint.lint.rules import specific_code
from semantics_lint.runtime import absent, coverage, described_result
from semantics_lint.runtime.envelope.refusal import (
    ARGUMENTS,
    DERIVED_KEY,
    SNAKE_CASE_KEY,
    UNKNOWN_KEY,
    Refusal,
)

BY_DESIGN = frozenset({"SEM203"})
"""E codes the mint never reproduces, by design (docs/agreement.md): it never parses measuredAt."""

MINTS = {
    "described_result": described_result,
    "describedResult": described_result,
    "absent": absent,
    "coverage": coverage,
}


@dataclass(frozen=True)
class Judged:
    """One example with both verdicts."""

    call: Call
    module: str
    refusal: Refusal | None
    runtime_crash: str | None
    findings: tuple[Finding, ...]
    static_exception: str | None = None

    @property
    def errors(self) -> tuple[str, ...]:
        """The E codes the linter reported, by-design exceptions left out, sorted."""
        return tuple(
            sorted(
                {f.code for f in self.findings if f.severity is Severity.ERROR and f.code not in BY_DESIGN}
            )
        )

    @property
    def static_refuses(self) -> bool:
        return bool(self.errors)

    @property
    def static_refuses_raw(self) -> bool:
        """The static verdict with SEM203 counted as an error like any other."""
        return any(f.severity is Severity.ERROR for f in self.findings)

    @property
    def runtime_refuses(self) -> bool:
        return self.refusal is not None

    @property
    def static_crash(self) -> bool:
        return self.static_exception is not None or any(f.code == "SEM001" for f in self.findings)

    @property
    def agree(self) -> bool:
        return (
            not self.static_crash
            and self.runtime_crash is None
            and self.static_refuses == self.runtime_refuses
        )

    @property
    def agree_raw(self) -> bool:
        return (
            not self.static_crash
            and self.runtime_crash is None
            and self.static_refuses_raw == self.runtime_refuses
        )

    def disagreement(self) -> tuple[str, str, str] | None:
        """``(door that is wrong or crashed, what it said, the code that should say it)``,
        or None when the doors agree."""
        if self.agree:
            return None
        if self.runtime_crash is not None:
            return ("runtime crash", self.runtime_crash, "-")
        if self.static_exception is not None:
            return ("linter crash", f"lint_source raised {self.static_exception}", "-")
        if self.static_crash:
            sem001 = next(f for f in self.findings if f.code == "SEM001")
            return ("linter crash", _first_words(sem001.message), "-")
        twin = deduplicated(self.call)
        if twin != self.call:
            try:
                if judge(twin).agree:
                    which = "runtime refuses" if self.runtime_refuses else "runtime accepts"
                    return (
                        f"duplicated keys, {which}",
                        "the linter reads the first of a key written twice",
                        "(read the last)",
                    )
            except NotLiteral:
                pass
        if self.runtime_refuses and not self.static_refuses:
            assert self.refusal is not None
            return (
                "runtime refuses, linter silent",
                f"{self.call.door if self.call.door != 'describedResult' else 'described_result'}:"
                f" {self.refusal.kind} at {path_pattern(self.refusal)}",
                expected_code(self.call.door, self.refusal),
            )
        if self.static_refuses and not self.runtime_refuses:
            return ("linter reports, runtime accepts", " ".join(self.errors), "(silent)")
        return None


def _first_words(message: str) -> str:
    return re.sub(r"\s+", " ", message)[:60]


def path_pattern(refusal: Refusal) -> str:
    """The refusal's path with list indexes as ``[i]`` and an unknown key as ``<key>``."""
    segments: list[object] = list(refusal.path)
    if refusal.kind in (UNKNOWN_KEY, SNAKE_CASE_KEY, DERIVED_KEY) and segments:
        segments[-1] = "<key>"
    text = ""
    for i, seg in enumerate(segments):
        if isinstance(seg, int) and not isinstance(seg, bool):
            text += "[i]"
        else:
            text += f"{'.' if i else ''}{seg}"
    if refusal.kind == ARGUMENTS:
        message = str(refusal)
        if "not both" in message:
            return "(a dict and keywords both)"
        if "no result" in message:
            return "(coverage() given no result)"
        if "takes a declaration:" in message:
            return "(no declaration)"
        return f"(positional argument {refusal.argument}: not a dict)"
    if refusal.argument is not None:
        text = f"argument {refusal.argument}" + (f" {text}" if text else "")
    return text or "(the call)"


_DATA = ("series", "facts", "edges")

_COARSE = (
    (re.compile(r"\b(checked|notChecked|cannotCover)\b"), "<list>"),
    (re.compile(r"\b(series|facts|edges)\b"), "<data>"),
    (re.compile(r"\b(sort|filterNote|chartHint)\b"), "<hint>"),
    (re.compile(r"\b(queried|held)\b"), "<span>"),
    (re.compile(r"\b(from|to)\b"), "<instant>"),
    (re.compile(r"\b(interval|aggregation|collapsed)\b"), "<grain text>"),
)


def coarse(found: tuple[str, str, str]) -> tuple[str, str, str]:
    """A disagreement class with the lists, data fields, render hints, spans and grain
    words each folded into one (``coverage.<list>[i].why``)."""
    side, said, code = found
    if not side.startswith("runtime refuses"):
        return found
    for pattern, word in _COARSE:
        said = pattern.sub(word, said)
    said = re.sub(r"^(described_result|absent|coverage): ", "", said) if code == "SEM101" else said
    return side, said, code


def expected_code(door: str, refusal: Refusal) -> str:
    """The static code that says what ``refusal`` says, by docs/agreement.md's table; SEM100 when
    no specific code fits: the linter's own map (``lint.rules.specific_code``)."""
    kind = "described_result" if door == "describedResult" else door
    return specific_code(kind, refusal) or "SEM100"


def runtime_verdict(
    door: str, args: tuple[Any, ...], kwargs: dict[str, Any]
) -> tuple[Refusal | None, str | None]:
    """The mint's refusal (or None) and, when it raised anything else, that."""
    try:
        MINTS[door](*args, **kwargs)
    except Refusal as refusal:
        return refusal, None
    except Exception as exc:  # noqa: BLE001 - a crash is what this looks for
        return None, f"{type(exc).__name__}: {_first_words(str(exc))}"
    return None, None


def judge(call: Call, filename: str = "tool.py") -> Judged:
    """Both verdicts on ``call``. Raises :class:`NotLiteral` for a call that is not."""
    module = call.module()
    door, args, kwargs = call_arguments(module)
    refusal, crash = runtime_verdict(door, args, kwargs)
    try:
        findings = tuple(lint_source(module.encode("utf-8"), filename))
    except Exception as exc:  # noqa: BLE001 - a crash is what this looks for
        return Judged(call, module, refusal, crash, (), f"{type(exc).__name__}: {_first_words(str(exc))}")
    return Judged(call, module, refusal, crash, findings)


def judge_all(examples: Iterable[Call]) -> tuple[list[Judged], int]:
    """Every example judged; also how many were skipped as not literal."""
    judged: list[Judged] = []
    skipped = 0
    for i, call in enumerate(examples):
        try:
            judged.append(judge(call, f"tool_{i:05d}.py"))
        except NotLiteral:
            skipped += 1
    return judged, skipped


__all__ = [
    "BY_DESIGN",
    "Judged",
    "coarse",
    "deduplicated",
    "expected_code",
    "judge",
    "judge_all",
    "path_pattern",
    "runtime_verdict",
    "shrink",
]


def deduplicated(call: Call) -> Call:
    """``call`` with every dict written as Python builds it: a key written twice (or two
    equal keys, ``1`` and ``True``) kept once, where it first stood, with its last value."""
    import ast as _ast
    from dataclasses import replace

    from doors.gen import Atom, Map, _set, _walk

    result = call
    for path, node in reversed(_walk(call)):
        if not isinstance(node, Map):
            continue
        kept: dict[object, int] = {}
        entries: list[tuple[object, object]] = []
        for key, value in node.items:
            try:
                literal = _ast.literal_eval(key.render()) if isinstance(key, Atom) else key
                hash(literal)
            except (ValueError, TypeError, SyntaxError):
                literal = key
            if literal in kept:
                entries[kept[literal]] = (entries[kept[literal]][0], value)
            else:
                kept[literal] = len(entries)
                entries.append((key, value))
        if len(entries) != len(node.items):
            result = _set(result, path, replace(node, items=tuple(entries)))  # type: ignore[arg-type]
    return result


def _smaller(call: Call) -> Iterable[Call]:
    """Calls one step smaller than ``call``: a keyword, an entry or an item left out."""
    from dataclasses import replace

    from doors.gen import Atom, Map, Seq, _set, _walk

    for i in range(len(call.keywords)):
        yield replace(call, keywords=call.keywords[:i] + call.keywords[i + 1 :])
    for path, node in _walk(call):
        if isinstance(node, Map):
            for j in range(len(node.items)):
                yield _set(call, path, replace(node, items=node.items[:j] + node.items[j + 1 :]))
        elif isinstance(node, Seq):
            for j in range(len(node.items)):
                yield _set(call, path, replace(node, items=node.items[:j] + node.items[j + 1 :]))
    for path, node in _walk(call):
        if isinstance(node, Atom) and len(node.text) > 12:
            yield _set(call, path, Atom("1"))
            yield _set(call, path, Atom("'x'"))
    if call.multiline:
        yield replace(call, multiline=False)


def shrink(example: Judged, budget: int = 400) -> Judged:
    """A smaller example in the same disagreement class (greedy, at most ``budget`` lints)."""
    target = example.disagreement()
    best = example
    tried = 0
    improved = True
    while improved and tried < budget:
        improved = False
        for candidate in _smaller(best.call):
            tried += 1
            if tried > budget:
                break
            try:
                judged = judge(candidate)
            except NotLiteral:
                continue
            if judged.disagreement() == target:
                best, improved = judged, True
                break
    return best
