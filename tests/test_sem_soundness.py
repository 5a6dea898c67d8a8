"""Never guess, checked against the runtime: an error the linter proves, the mint refuses.

Generated declarations are fully literal, so the runtime mints (``described_result``,
``absent``, ``coverage`` of ``semantics_lint.runtime``) can judge the very same values.
For every error finding of SEM2xx-SEM5xx, the mint must refuse the declaration: the
source proved a mistake the run would meet. (SEM203 and SEM204 are excluded: a date
typed into ``measuredAt`` or read from the clock is accepted at run time, which is the
whole reason the static rules exist.)

The converse is checked where it is exact: a declaration that every mint accepts gets
no finding from these rules at all.
"""

from __future__ import annotations

from collections.abc import Callable

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from semantics_lint import runtime
from semantics_lint.lint.engine import lint_source
from semantics_lint.runtime.envelope.refusal import Refusal

PROVED_AT_RUN_TIME = frozenset(
    {
        "SEM201",
        "SEM202",
        "SEM205",
        "SEM301",
        "SEM302",
        "SEM303",
        "SEM401",
        "SEM402",
        "SEM403",
        "SEM404",
        "SEM405",
        "SEM406",
        "SEM501",
        "SEM502",
    }
)
OURS = frozenset({*PROVED_AT_RUN_TIME, "SEM203", "SEM204"})
HEADER = "from semantics_lint.runtime import absent, coverage, described_result\n\n"

TEXTS = ("'x'", "''", "'  '", "'2024-05-01'", "None", "0", "True", "[]", "['a']", "{}")
AGES = ("0", "5", "1.5", "-5", "-0.5", "True", "'30'", "None", "float('inf')", "float('nan')", "[]")
BOOLS = ("True", "False", "'false'", "None", "0", "1")
AGGREGATIONS = (
    "'count'",
    "'Total jobs'",
    "'summary'",
    "'subtotal'",
    "'count_per_host'",
    "''",
    "None",
)
ITEMS = (
    "'the export'",
    "''",
    "' '",
    "{'what': 'PPDM'}",
    "{'what': 'PPDM', 'why': 'not collected'}",
    "{'what': ''}",
    "{'why': 'timed out'}",
    "{'what': 'x', 'why': ''}",
    "{'what': 'x', 'why': None}",
    "None",
    "3",
)
INSTANTS = (
    "'2026-09-26T08:00:00Z'",
    "'2026-09-26T10:00:00+02:00'",
    "'2026-09-26T08:00:00'",
    "'2026-09-26'",
    "'2026-09-27T00:00:00Z'",
    "None",
    "5",
)

Draw = Callable[[st.SearchStrategy], object]


def _dict(draw: Draw, fields: dict[str, tuple[str, ...]]) -> str:
    chosen = draw(st.lists(st.sampled_from(sorted(fields)), unique=True, max_size=len(fields)))
    body = ", ".join(f"{key!r}: {draw(st.sampled_from(fields[key]))}" for key in chosen)  # type: ignore[index]
    return "{" + body + "}"


def _items(draw: Draw) -> str:
    items = draw(st.lists(st.sampled_from(ITEMS), max_size=3))
    return "[" + ", ".join(items) + "]"  # type: ignore[arg-type]


def _coverage_lists(draw: Draw) -> dict[str, str]:
    chosen = draw(st.lists(st.sampled_from(["checked", "notChecked", "cannotCover"]), unique=True))
    return {key: (_items(draw) if draw(st.booleans()) else "None") for key in chosen}  # type: ignore[union-attr]


def _one_of(draw: Draw, plain: str, build: Callable[[], str], other: str | None = None) -> str:
    """Mostly a generated dict; sometimes a plain value that is not one."""
    choice = draw(st.integers(0, 5))
    if choice == 0:
        return plain
    if choice == 1 and other is not None:
        return other
    return build()


@st.composite
def described(draw: Draw) -> tuple[str, str]:
    fields: dict[str, str] = {}
    data = draw(st.sampled_from(["facts", "series", "both", "edges", "none"]))
    if data in ("facts", "both"):
        fields["facts"] = draw(st.sampled_from(["[{'entity': 'vm-01'}]", "[]"]))  # type: ignore[assignment]
    if data in ("series", "both"):
        fields["series"] = "[{'t': 1, 'entity': 'e', 'metric': 'm', 'value': 1}]"
    if data == "edges":
        fields["edges"] = "[{'from': 'a', 'to': 'b', 'kind': 'rides'}]"
    if draw(st.booleans()):
        fields["provenance"] = _one_of(
            draw,
            "None",
            lambda: _dict(draw, {"measuredAt": TEXTS, "source": TEXTS, "ageSeconds": AGES}),
        )
    if draw(st.booleans()):
        fields["grain"] = _one_of(
            draw,
            "None",
            lambda: _dict(
                draw,
                {
                    "interval": TEXTS,
                    "aggregation": AGGREGATIONS,
                    "isCounter": BOOLS,
                    "collapsed": TEXTS,
                },
            ),
        )
    if draw(st.booleans()):
        lists = _coverage_lists(draw)
        fields["coverage"] = "{" + ", ".join(f"{k!r}: {v}" for k, v in lists.items()) + "}"
    if draw(st.booleans()) or data == "none":
        candidates = ("[]", "['a']", "'a, b'", "None", "{'a'}", "()")
        fields["clarify"] = _one_of(
            draw,
            "None",
            lambda: _dict(draw, {"question": TEXTS, "candidates": candidates}),
            "'Which?'",
        )
    if draw(st.booleans()):
        columns = ("[]", "['entity']", "['']", "'entity'", "()")
        fields["render"] = _one_of(
            draw, "'table'", lambda: _dict(draw, {"default": TEXTS, "columns": columns})
        )
    # Some parts are bound to module constants: the linter must follow them.
    prelude = ""
    for key in ("provenance", "grain", "coverage", "clarify", "render"):
        if key in fields and draw(st.booleans()):
            prelude += f"{key.upper()} = {fields[key]}\n"
            fields[key] = key.upper()
    return prelude, "described_result(" + ", ".join(f"{k}={v}" for k, v in fields.items()) + ")"


@st.composite
def absence(draw: Draw) -> tuple[str, str]:
    fields: dict[str, str] = {}
    if draw(st.booleans()):
        fields["what"] = draw(st.sampled_from(TEXTS))  # type: ignore[assignment]
    fields.update(_coverage_lists(draw))
    return "", "absent(" + ", ".join(f"{k}={v}" for k, v in fields.items()) + ")"


@st.composite
def boundary(draw: Draw) -> tuple[str, str]:
    content = draw(
        st.sampled_from(
            [
                "{'pairs_ok': True}",
                "described_result(facts=[{'entity': 'e'}], provenance={'measuredAt': 't', 'source': 's'})",
            ]
        )
    )
    fields = _coverage_lists(draw)
    if draw(st.booleans()):

        def span() -> str:
            start, end = draw(st.sampled_from(INSTANTS)), draw(st.sampled_from(INSTANTS))
            return "{" + f"'from': {start}, 'to': {end}" + "}"

        period = {"queried": span()}
        if draw(st.booleans()):
            period["held"] = draw(st.sampled_from(["'unknown'", "'2026-09-26'", span()]))  # type: ignore[assignment]
        if draw(st.booleans()):
            period["readAt"] = draw(st.sampled_from(INSTANTS))  # type: ignore[assignment]
        fields["period"] = "{" + ", ".join(f"{k!r}: {v}" for k, v in period.items()) + "}"
    if draw(st.booleans()):
        fields["inProgress"] = draw(st.sampled_from(["['2 resyncs']", "[]", "None"]))  # type: ignore[assignment]
    rest = "".join(f", {k}={v}" for k, v in fields.items())
    return "", f"coverage({content}{rest})"


def _judge(prelude: str, call: str) -> tuple[set[str], bool]:
    """The codes of ours the linter reports on ``call``, and whether the mint refused it."""
    source = HEADER + prelude + f"\ndef tool():\n    return {call}\n"
    codes = {f.code for f in lint_source(source.encode("utf-8"), "generated.py")} & OURS
    namespace = {
        "described_result": runtime.described_result,
        "absent": runtime.absent,
        "coverage": runtime.coverage,
        "float": float,
    }
    try:
        # Our own generated constants and literal declaration, never user code.
        exec(prelude, namespace)  # noqa: S102
        eval(call, namespace)
    except Refusal:
        return codes, True
    return codes, False


def _check(generated: tuple[str, str]) -> None:
    prelude, call = generated
    codes, refused = _judge(prelude, call)
    call = prelude + call
    proved = codes & PROVED_AT_RUN_TIME
    for code in sorted(codes):
        event(code)
    if proved:
        assert refused, f"{sorted(proved)} reported, but the mint accepts: {call}"
    if not refused:
        # Accepted at run time: nothing but the static-only rules may speak.
        assert codes <= {"SEM203", "SEM204"}, f"{sorted(codes)} on an accepted declaration: {call}"


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(described())
def test_described_result_findings_are_refusals(call: tuple[str, str]) -> None:
    _check(call)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(absence())
def test_absent_findings_are_refusals(call: tuple[str, str]) -> None:
    _check(call)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(boundary())
def test_coverage_findings_are_refusals(call: tuple[str, str]) -> None:
    _check(call)
