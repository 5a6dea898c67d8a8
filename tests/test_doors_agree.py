"""The two doors on literal declarations (docs/agreement.md).

Hypothesis writes ``described_result``/``absent``/``coverage`` calls with literals
only (``tests/doors/gen.py``: valid declarations and mutations of them), each as a
tool module. The linter lints the module; the mint judges the literal values of the
call's arguments, read with ``ast.literal_eval`` (the module is never run). The
static verdict (an E finding other than SEM203) must be the runtime verdict (a
``refused:`` error).

``test_the_doors_agree`` is marked ``doors`` (``pytest -m doors`` runs it alone,
``-m 'not doors'`` leaves it out) and ``slow``, and runs in the default suite with a
few thousand examples; ``bench/doors_agreement.py`` measures the rate on more and lists what
disagrees. The other tests here keep the harness and SEM100 honest.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import NamedTuple

import pytest
from doors.disguise import DISGUISES
from doors.gen import MUTATIONS, Call, NotLiteral, call_arguments, calls, disguised_calls, sample, valid_calls
from doors.verdict import judge, judge_all, runtime_verdict
from hypothesis import HealthCheck, Phase, find, given, settings
from hypothesis.errors import NoSuchExample

from semantics_lint.lint.calls.verdicts import _ALL_SPECIFIC, _SPECIFIC_AS_LIST
from semantics_lint.lint.engine import lint_source
from semantics_lint.lint.rules import specific_code
from semantics_lint.runtime.envelope.refusal import ARGUMENTS, REFUSAL_KINDS
from semantics_lint.runtime.mints.judge import DOOR_PARTS, part_refusal, refusal_of

# A generated example may hold a 4,000-digit number or a value nested 150 deep.
pytestmark = pytest.mark.filterwarnings("ignore:Generating overly large repr")


def _examples(count: int) -> settings:
    return settings(max_examples=count, deadline=None, suppress_health_check=list(HealthCheck))


@_examples(150)
@given(valid_calls())
def test_a_valid_declaration_is_accepted_by_the_mint(call: object) -> None:
    door, args, kwargs = call_arguments(call.module())  # type: ignore[attr-defined]
    refusal, crash = runtime_verdict(door, args, kwargs)
    assert (refusal, crash) == (None, None), call.render()  # type: ignore[attr-defined]


@_examples(300)
@given(calls())
def test_the_mint_never_crashes_and_every_refusal_says_where(call: object) -> None:
    try:
        door, args, kwargs = call_arguments(call.module())  # type: ignore[attr-defined]
    except NotLiteral:
        return
    refusal, crash = runtime_verdict(door, args, kwargs)
    assert crash is None, call.render()  # type: ignore[attr-defined]
    judged = refusal_of(door, args, kwargs)
    if refusal is None:
        assert judged is None
        return
    assert str(refusal).startswith("refused:")
    assert refusal.kind in REFUSAL_KINDS
    assert judged is not None
    assert (str(judged), judged.path, judged.kind, judged.argument) == (
        str(refusal),
        refusal.path,
        refusal.kind,
        refusal.argument,
    )


def _kind_of(call: Call) -> str | None:
    try:
        door, args, kwargs = call_arguments(call.module())
    except NotLiteral:
        return None
    refusal, _ = runtime_verdict(door, args, kwargs)
    return refusal.kind if refusal is not None else "accepted"


# Derandomized: a search that reaches a mutation once reaches it on every run (with a
# fresh seed each run, a rare mutation was sometimes missed in 3,000 tries).
_SEARCH = settings(
    max_examples=3000,
    derandomize=True,
    database=None,
    phases=[Phase.generate],
    deadline=None,
    suppress_health_check=list(HealthCheck),
)
_KINDS = sorted(REFUSAL_KINDS | {"accepted"})


class Reached(NamedTuple):
    """What one search reached: mutations, disguises (each call's first) and kinds of
    verdict (a kind of refusal, or ``accepted``)."""

    mutations: set[str]
    disguises: set[str]
    kinds: set[str]


@pytest.fixture(scope="module")
def reached() -> Reached:
    """The mutations, disguises and kinds of verdict that one derandomized search of at
    most 3,000 calls reaches (a disguise it misses, then among at most 3,000 calls that
    all carry one).

    A derandomized search draws the same calls in the same order whatever it looks
    for, so one search that records all three, and stops once it has seen every one of
    each, reaches exactly what a search for each of them alone would."""
    seen = Reached(set(), set(), set())

    def everything_seen(call: Call) -> bool:
        seen.mutations.update(m.split("@")[0] for m in call.mutations)
        seen.disguises.update(call.disguise[:1])
        kind = _kind_of(call)
        if kind is not None:
            seen.kinds.add(kind)
        return (
            seen.mutations >= set(MUTATIONS)
            and seen.disguises >= set(DISGUISES)
            and seen.kinds >= set(_KINDS)
        )

    try:
        find(calls(), everything_seen, settings=_SEARCH)
    except NoSuchExample:
        pass  # the tests name what was not reached

    def every_disguise_seen(call: Call) -> bool:
        seen.disguises.update(call.disguise[:1])
        return seen.disguises >= set(DISGUISES)

    if not seen.disguises >= set(DISGUISES):
        # A disguise is drawn in few of the calls; those the search above did not
        # reach are looked for among calls that always carry one.
        try:
            find(disguised_calls(), every_disguise_seen, settings=_SEARCH)
        except NoSuchExample:
            pass
    return seen


@pytest.mark.slow
@pytest.mark.xdist_group("doors-search")
@pytest.mark.parametrize("mutation", sorted(set(MUTATIONS)))
def test_the_generator_reaches_every_mutation(reached: Reached, mutation: str) -> None:
    assert mutation in reached.mutations, f"no call of 3,000 carries the mutation {mutation}"


@pytest.mark.slow
@pytest.mark.xdist_group("doors-search")
@pytest.mark.parametrize("disguise", DISGUISES)
def test_the_generator_reaches_every_disguise(reached: Reached, disguise: str) -> None:
    assert disguise in reached.disguises, f"no call of 3,000 has a field disguised by {disguise}"


@pytest.mark.doors
@_examples(400)
@given(disguised_calls())
def test_the_doors_agree_through_a_name_a_branch_or_an_arm(call: object) -> None:
    """A data field reached through a name followed in its scope, a branch whose test
    proves it false, an arm of a conditional (``doors.disguise``): the linter's verdict
    is still the mint's on the value Python would pass."""
    _assert_the_doors_agree(call)


@pytest.mark.slow
@pytest.mark.xdist_group("doors-search")
@pytest.mark.parametrize("kind", _KINDS)
def test_the_generator_reaches_every_kind_of_refusal(reached: Reached, kind: str) -> None:
    assert kind in reached.kinds, f"no call of 3,000 gets the verdict {kind}"


def test_the_command_reports_what_the_engine_reports(tmp_path: Path) -> None:
    judged, _ = judge_all(sample(40, seed=11))
    for i, example in enumerate(judged):
        (tmp_path / f"tool_{i:03d}.py").write_text(example.module, encoding="utf-8")
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "semantics_lint",
            "check",
            "--no-cache",
            "--exit-zero",
            "--output-format",
            "json",
            str(tmp_path),
        ],
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
    )
    by_file: dict[str, list[str]] = {}
    for finding in json.loads(result.stdout):
        by_file.setdefault(Path(finding["filename"]).name, []).append(finding["code"])
    for i, example in enumerate(judged):
        expected = sorted(f.code for f in example.findings)
        assert sorted(by_file.get(f"tool_{i:03d}.py", [])) == expected, example.module


@pytest.mark.doors
@pytest.mark.slow
@_examples(3000)
@given(calls())
def test_the_doors_agree(call: object) -> None:
    _assert_the_doors_agree(call)


def _assert_the_doors_agree(call: object) -> None:
    try:
        judged = judge(call)  # type: ignore[arg-type]
    except NotLiteral:
        return
    found = judged.disagreement()
    assert found is None, (
        f"{found[0]}: {found[1]} (should be {found[2]})\n{judged.module}\n"
        f"refusal: {judged.refusal}\nfindings: {[(f.code, f.message) for f in judged.findings]}"
    )


@_examples(300)
@given(calls())
def test_a_part_the_mint_refuses_alone_it_refuses_in_the_call(call: object) -> None:
    """SEM100 judges the literal fields of a call that is not all literals one by one:
    each refusal of a part alone must be a refusal of the whole call."""
    try:
        door, args, kwargs = call_arguments(call.module())  # type: ignore[attr-defined]
    except NotLiteral:
        return
    whole = refusal_of(door, args, kwargs)
    for name, value in kwargs.items():
        if name in DOOR_PARTS[door] and part_refusal(door, name, value) is not None:
            assert whole is not None, (name, call.render())  # type: ignore[attr-defined]


@_examples(300)
@given(calls())
def test_sem100_says_what_the_mint_says_and_no_specific_code_does(call: object) -> None:
    try:
        judged = judge(call)  # type: ignore[arg-type]
    except NotLiteral:
        return
    own = [f for f in judged.findings if f.code == "SEM100"]
    if not own:
        return
    assert judged.refusal is not None, judged.module
    # A refusal of the arguments is SEM100's alone; any other is never reported where a
    # specific code already reports (the same range).
    others = {(f.start, f.end) for f in judged.findings if f.code != "SEM100"}
    for finding in own:
        assert "refused:" in finding.message
        if judged.refusal.kind != ARGUMENTS or not finding.message.endswith(str(judged.refusal)):
            assert (finding.start, finding.end) not in others, judged.module


@_examples(300)
@given(calls())
def test_a_part_sem100_leaves_alone_is_refused_only_for_what_a_specific_code_says(
    call: object,
) -> None:
    """SEM100 does not judge alone a grain, nor a data field or coverage list written as
    a list: every refusal of those has a specific code."""
    try:
        door, args, kwargs = call_arguments(call.module())  # type: ignore[attr-defined]
    except NotLiteral:
        return
    kind = "described_result" if door == "describedResult" else door
    for name, value in kwargs.items():
        skipped = name in _ALL_SPECIFIC.get(kind, ()) or (
            name in _SPECIFIC_AS_LIST.get(kind, ()) and isinstance(value, (list, tuple))
        )
        if skipped:
            refusal = part_refusal(kind, name, value)
            if refusal is not None:
                assert specific_code(kind, refusal) is not None, (
                    refusal.kind,
                    refusal.path,
                    call.render(),
                )  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("call", "code"),
    [
        ("coverage('verdict: healthy', None, checked=[])", "SEM402"),
        ("absent(None, what='x')", "SEM404"),
    ],
)
def test_a_none_declaration_is_read_as_the_mint_reads_it(call: str, code: str) -> None:
    """Every mint reads its keywords alone when the declaration it is given is None; the
    linter did so only for described_result, and stayed silent where the mint refuses."""
    text = f"from semantics_lint.runtime import absent, coverage\n\ndef tool():\n    return {call}\n"
    codes = {finding.code for finding in lint_source(text.encode("utf-8"), "tool.py")}
    assert code in codes
