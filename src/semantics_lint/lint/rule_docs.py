"""Rule documentation rendered from the rule classes: ``semantics-lint rule`` and docs/rules.md.

A page is built from one class: its code, name, severity and fix safety (the header),
its docstring sections (What it does, Why is this bad?, Fix safety, Known problems),
and its examples (Example: the first INVALID; Use instead: that example's fixed form
when it has one, else the first VALID; More examples: all the others, through-a-name
and never-guess cases included). Since the examples are the tests, every example in
the docs is tested.

``docs/rules.md`` is ``render_all()``; regenerate it with ``python -m semantics_lint.gen``
(a test fails when the checked-in copy drifts).
"""

from __future__ import annotations

import inspect
import re

from semantics_lint.lint.core.model import Severity
from semantics_lint.lint.rules import ALL_RULES, Rule, get_rule

_SEVERITY_TEXT = {
    Severity.ERROR: "error (E): the source proves it wrong",
    Severity.WARNING: "warning (W): a strong heuristic",
}
_FIX_TEXT = {
    "none": "none",
    "safe": "safe (applied by `--fix`)",
    "unsafe": "unsafe (applied by `--fix --unsafe-fixes`)",
}
_LEADING_SECTIONS = ("What it does", "Why is this bad?")
_TRAILING_SECTIONS = ("Fix safety", "Options", "Known problems", "References")
_HEADING = re.compile(r"^## (.+?)\s*$", re.MULTILINE)

BANNER = "<!-- Generated from the rule classes by `python -m semantics_lint.gen`; do not edit. -->"


def docstring_sections(rule: type[Rule]) -> dict[str, str]:
    """The ``## Heading`` sections of a rule's docstring, in order, bodies stripped."""
    doc = inspect.cleandoc(rule.__doc__ or "")
    sections: dict[str, str] = {}
    matches = list(_HEADING.finditer(doc))
    for index, match in enumerate(matches):
        end = matches[index + 1].start() if index + 1 < len(matches) else len(doc)
        sections[match.group(1)] = doc[match.end() : end].strip()
    return sections


def _code_block(source: str) -> str:
    return "```python\n" + source.rstrip("\n") + "\n```"


def _more_examples(rule: type[Rule], sub: str, shown: tuple[str, ...]) -> list[str]:
    """Every other example of the rule (through a name, never-guess negatives, ...)."""
    flagged = [case.source for case in rule.INVALID if case.source not in shown]
    silent = [case.source for case in rule.VALID if case.source not in shown]
    if not flagged and not silent:
        return []
    lines = [f"{sub} More examples", ""]
    if flagged:
        lines += ["Reported:", ""]
        for source in flagged:
            lines += [_code_block(source), ""]
    if silent:
        lines += ["Not reported (correct, or not provable from the source):", ""]
        for source in silent:
            lines += [_code_block(source), ""]
    return lines


def render_rule(code: str, level: int = 1) -> str:
    """The markdown page of one rule; ``level`` is the depth of its top heading."""
    rule = get_rule(code)
    top = "#" * level
    sub = "#" * (level + 1)
    sections = docstring_sections(rule)
    lines = [
        f"{top} {rule.code}: {rule.name}",
        "",
        f"- Severity: {_SEVERITY_TEXT[rule.severity]}",
        f"- Fix: {_FIX_TEXT[rule.fix]}",
        "",
    ]
    for heading in _LEADING_SECTIONS:
        if heading in sections:
            lines += [f"{sub} {heading}", "", sections[heading], ""]
    example = rule.INVALID[0]
    lines += [f"{sub} Example", "", _code_block(example.source), ""]
    instead = example.fixed if example.fixed is not None else rule.VALID[0].source
    lines += [f"{sub} Use instead", "", _code_block(instead), ""]
    lines += _more_examples(rule, sub, shown=(example.source, instead))
    for heading, body in sections.items():
        if heading in _LEADING_SECTIONS or heading in _TRAILING_SECTIONS:
            continue
        lines += [f"{sub} {heading}", "", body, ""]
    for heading in _TRAILING_SECTIONS:
        if heading in sections:
            lines += [f"{sub} {heading}", "", sections[heading], ""]
    return "\n".join(lines).rstrip("\n") + "\n"


FOLLOWED_VALUES = """## Values the linter follows

Every rule reads a value through one model of what an expression provably holds, and
judges only what the source proves:

- a name bound once where Python looks it up (`EXPORT_DAY = "2024-05-01"`, `x: T = v`),
  an alias of one (`rows = changes`), a constant imported from another module of the
  project;
- a class constant: `Jobs.EXPORTED_AT`, or `self.EXPORTED_AT` (`cls.` in a class
  method) in a method of the class, bound once in the body of a plain class of the
  linted module (no decorator, no metaclass, bases that are plain classes of the
  module; a class imported from another module is not followed; `self.X` reads the
  class's own value, and a subclass in another module that binds `X` again is not seen);
- a subscript with a literal key into a literal container: `SNAPSHOT["taken_at"]`,
  `STAMPS[0]`, `meta["exported"]` (a module or a local dict or list display);
- an f-string whose every piece is a literal or such a constant, folded as Python
  folds it (`f"{YEAR}-{QUARTER_END}T00:00:00Z"`, `f"{2024}-{9:02d}-30"`);
- a walrus, in a test (`if not (alerts := ...):`) or in the call (`facts=(rows := [])`);
- a comprehension or generator over an iterable provably empty (`[{...} for h in []]`,
  `list(h for h in ())`, a constant `()`);
- `functools.partial(described_result, ...)` (and of `absent`, `coverage`, and of an
  adapter: `partial(served, result_class=...)`), read as the call it will make: the
  keys and values written are judged, the fields it leaves to the later call are never
  missing.

A value that may change is unknown, and unknown is never a finding: a name bound
twice, declared `global` or `nonlocal`, a class attribute stored to anywhere
(`self.X = ...`, `setattr`) or bound again in another class, a mutable value read
through another name (an alias), handed to a call, changed in place through any name
(`rows.append(r)`, `SNAPSHOT["taken_at"] = t`, `cache.rows.extend(...)` after
`rows = cache.rows`). Parameter defaults (`def tool(at=DEFAULT_AT)`: a caller may pass
another value), values returned by helper functions (`SNAPSHOT.get("taken_at")`,
`"{}-09-30".format(YEAR)` included), dataclass fields and enum members are not
followed.
"""


def render_all() -> str:
    """The whole rule reference, ``docs/rules.md``."""
    lines = [
        BANNER,
        "",
        "# semantics-lint rules",
        "",
        "Every code the linter reports, with what it catches, why, an example and the fix.",
        "`semantics-lint rule CODE` prints the same page in a terminal.",
        "Which of these mistakes mypy and pyright show in the editor: [types.md](types.md).",
        "",
        "| code | name | severity | fix |",
        "|---|---|---|---|",
    ]
    for rule in ALL_RULES:
        anchor = rule.code.lower()
        fix = rule.fix if rule.fix != "none" else ""
        lines.append(
            f"| [{rule.code}](#{anchor}-{rule.name}) | {rule.name} | {rule.severity.value} | {fix} |"
        )
    lines += ["", FOLLOWED_VALUES, ""]
    for rule in ALL_RULES:
        lines.append(render_rule(rule.code, level=2))
    return "\n".join(lines).rstrip("\n") + "\n"
