"""SEM2xx-SEM5xx on odd values: any expression in any slot is judged without raising.

Generated expressions (names bound or not, attributes, calls, literals of every type,
f-strings, starred and spread items, comprehensions, walrus, lambdas, awaits) go into
every field of ``described_result``, ``absent`` and ``coverage``, some through module
constants. The linter must never raise, every finding of these rules must sit inside
the call it concerns (a value followed through a name is reported at the name), and a
value the linter cannot know (a parameter) must never be a finding.
"""

from __future__ import annotations

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from semantics_lint.lint.engine import lint_source

OURS = ("SEM2", "SEM3", "SEM4", "SEM5")

ATOMS = st.sampled_from(
    [
        "p",
        "CONST",
        "LIST",
        "DICT",
        "p.at",
        "mod.VALUE",
        "p['k']",
        "None",
        "True",
        "0",
        "-1",
        "1.5",
        "1e999",
        "''",
        "' '",
        "'x'",
        "'2024-05-01'",
        "b'x'",
        "...",
        "[]",
        "()",
        "{}",
        "set()",
        "list()",
        "dict()",
        "datetime.now()",
        "datetime(2024, 5, 1)",
        "time.time()",
        "float('nan')",
        "math.inf",
        "f'{p}'",
        "f''",
        "f'2024-05-01T{p}'",
        "lambda: 1",
        "(q := 1)",
        "p()",
        "await p",
        "'unknown'",
        "'2026-09-26T08:00:00Z'",
        "9" * 400,
        "-" + "9" * 400,
    ]
)


def _extend(children: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    return st.one_of(
        st.lists(children, max_size=3).map(lambda xs: "[" + ", ".join(xs) + "]"),
        st.lists(children, max_size=3).map(lambda xs: "(" + "".join(x + ", " for x in xs) + ")"),
        st.lists(
            st.tuples(st.sampled_from(["'what'", "'why'", "'from'", "'to'", "'x'", "1"]), children),
            max_size=3,
        ).map(lambda kv: "{" + ", ".join(f"{k}: {v}" for k, v in kv) + "}"),
        children.map(lambda x: f"[*{x}]"),
        children.map(lambda x: "{**" + x + "}"),
        children.map(lambda x: f"-({x})"),
        children.map(lambda x: f"str({x})"),
        children.map(lambda x: f"({x}).isoformat()"),
        children.map(lambda x: f"f'{{{x}}}'"),
        st.tuples(children, children).map(lambda ab: f"{ab[0]} + {ab[1]}"),
        children.map(lambda x: f"[r for r in {x}]"),
    )


VALUES = st.recursive(ATOMS, _extend, max_leaves=6)

SLOTS = {
    "described_result": {
        "facts": None,
        "series": None,
        "edges": None,
        "grain": ("interval", "aggregation", "isCounter", "collapsed"),
        "provenance": ("measuredAt", "source", "ageSeconds", "sourceExportDate"),
        "coverage": ("checked", "notChecked", "cannotCover"),
        "clarify": ("question", "candidates"),
        "render": ("default", "columns", "sort"),
    },
    "absent": {"what": None, "checked": None, "notChecked": None, "cannotCover": None},
    "coverage": {
        "checked": None,
        "notChecked": None,
        "cannotCover": None,
        "period": ("queried", "held", "readAt"),
        "inProgress": None,
    },
}

HEADER = (
    "from semantics_lint.runtime import absent, coverage, described_result\n"
    "from datetime import datetime\n"
    "import time, math\n"
    "import mod\n"
    "CONST = '2024-05-01'\n"
    "LIST = ['a']\n"
    "DICT = {'what': ''}\n"
)


@st.composite
def module(draw: st.DrawFn) -> tuple[str, int, int]:
    kind = draw(st.sampled_from(sorted(SLOTS)))
    fields = []
    bindings = []
    for name, nested in SLOTS[kind].items():
        if not draw(st.booleans()):
            continue
        if nested is None:
            value = draw(VALUES)
        else:
            keys = draw(st.lists(st.sampled_from(nested), unique=True))
            value = "{" + ", ".join(f"{key!r}: {draw(VALUES)}" for key in keys) + "}"
        # A module constant cannot await or hold the function's walrus.
        if draw(st.integers(0, 3)) == 0 and "await" not in value and ":=" not in value:
            constant = f"BOUND_{len(bindings)}"
            bindings.append(f"{constant} = {value}\n")
            value = constant
        fields.append(f"{name}={value}")
    content = [draw(VALUES)] if kind == "coverage" else []
    call = f"{kind}({', '.join([*content, *fields])})"
    prelude = HEADER + "".join(bindings)
    first = prelude.count("\n") + 4  # two blank lines, the def, then the call
    source = prelude + f"\n\nasync def tool(p, mod2):\n    return {call}\n"
    return source, first, first


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(module())
def test_any_value_is_judged_without_raising_and_reported_in_the_call(
    generated: tuple[str, int, int],
) -> None:
    source, first, last = generated
    findings = lint_source(source.encode("utf-8"), "generated.py")
    event("does not parse" if any(f.code == "SEM001" for f in findings) else "parses")
    for finding in findings:
        if finding.code.startswith(OURS):
            assert first <= finding.start.line <= last, (finding, source)
            assert finding.message and finding.code not in finding.message


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(sorted(SLOTS)), st.data())
def test_parameters_are_never_findings(kind: str, data: st.DataObject) -> None:
    fields = []
    for name, nested in SLOTS[kind].items():
        if nested is None:
            fields.append(f"{name}=p.{name}")
        else:
            keys = data.draw(st.lists(st.sampled_from(nested), unique=True, min_size=len(nested)))
            fields.append(f"{name}={{" + ", ".join(f"{key!r}: {key}_" for key in keys) + "}")
    params = ", ".join(["p", *(f"{key}_" for nested in SLOTS[kind].values() if nested for key in nested)])
    content = ["p"] if kind == "coverage" else []
    source = HEADER + f"\ndef tool({params}):\n    return {kind}({', '.join([*content, *fields])})\n"
    ours = [f for f in lint_source(source.encode("utf-8"), "generated.py") if f.code.startswith(OURS)]
    assert ours == [], (ours, source)
