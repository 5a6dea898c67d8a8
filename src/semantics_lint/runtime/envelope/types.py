"""The declarations and the envelopes as types: ``TypedDict`` s for mypy and pyright.

The mints (:func:`~semantics_lint.runtime.described_result`,
:func:`~semantics_lint.runtime.absent`, :func:`~semantics_lint.runtime.coverage`)
are typed with these, so an editor running mypy or pyright (Pylance) underlines,
before anything runs, what the reference's TypeScript types underline:

* a snake_case key (``provenance={"measured_at": ...}``, ``not_checked=[...]``):
  the declaration is camelCase at every level; mypy and pyright name the key at
  the part, since each door has one signature whose keywords are typed by the
  parts (:class:`DescribedResultFields`, :class:`AbsenceFields`,
  :class:`CoverageDeclaration`, :class:`ToolDefinitionFields`);
* in the one positional dict: series or facts with no ``provenance``, series with
  no ``grain``, a described result with no data and no ``clarify`` question (the
  four shapes of :data:`DescribedResultDeclaration`); as keywords, these
  combinations are the linter's and the runtime's to report;
* a ``cannotCover`` item without a ``why`` (:class:`CannotCoverItem`);
* provenance without ``measuredAt`` or ``source``, render without ``default``,
  a period without ``queried``/``held``.

Two families of names:

* **declarations** (what a tool author writes, camelCase): :class:`Grain`,
  :class:`Provenance`, :class:`Coverage`, :class:`CoverageItem`,
  :class:`CannotCoverItem`, :class:`Clarify`, :class:`Render`, :class:`Period`,
  :class:`PeriodSpan`, :class:`InProgressItem`, the rows :class:`SeriesPoint`,
  :class:`Fact`, :class:`Edge`, and the declarations :data:`DescribedResultDeclaration`
  (:class:`SeriesDeclaration` | :class:`FactsDeclaration` | :class:`EdgesDeclaration` |
  :class:`ClarifyDeclaration`), :class:`AbsenceDeclaration` and
  :class:`CoverageDeclaration`; :class:`ToolDefinition` (``define_tool``), whose
  ``resultClass`` is a :data:`ToolResultClass`; and the keyword forms
  :class:`DescribedResultFields`, :class:`AbsenceFields`, :class:`ToolDefinitionFields`;
* **wire envelopes** (what the mints return and records keep, snake_case):
  :class:`ToolSemantics` with :class:`SemanticGrain`, :class:`SemanticProvenance`,
  :class:`SemanticCoverage`, :class:`SemanticClarify`, :class:`SemanticRender`;
  :class:`ToolAbsence`; :class:`CoveredResult` with :class:`CoverageLedger` and
  :class:`PeriodOnWire`.

Keys are spelled exactly as :mod:`semantics_lint.vocabulary` lists them (a test
keeps the two equal). Required and optional keys follow the reference's
TypeScript types (agentfootprint ``DescribedResultDeclaration``,
``CoverageDeclaration``, ``AbsenceDeclaration``, ``ToolSemantics``, ...).

Types describe; they change nothing at run time, and the runtime still refuses
everything it refused. Where the reference's types are stricter than its runtime,
these are too: a series point carries exactly ``t, entity, metric, value``,
``clarify`` names its ``candidates``, a coverage item carries only ``what`` and
``why``. What types cannot see (a value through a name, a date typed into
``measuredAt``, a counter word in ``aggregation``, an empty list, a tool's
class) is the linter's and the runtime's ground: see ``docs/types.md``.

Traps: ``Fact`` and ``Edge`` rows carry the tool's own columns beside their
required keys (PEP 728 ``extra_items``); pyright reads that, mypy does not yet,
so the mints take facts and edges rows as any ``Mapping[str, object]``. A
``str`` is a ``Sequence`` to a type checker, so ``checked="x"`` where a list is
meant is not a type error (the runtime and the linter refuse it). A declaration
built as ``dict[str, Any]`` is not a :data:`DescribedResultDeclaration`: annotate
it with the declaration type, or pass its fields as keywords.
"""

# No ``from __future__ import annotations`` here: the TypedDicts are built from
# evaluated annotations, so ``__required_keys__`` tells Required from NotRequired
# at run time too (the tests read it).

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Generic, Literal, TypeAlias, TypeVar

from typing_extensions import NotRequired, Required, TypedDict

__all__ = [
    "AbsenceDeclaration",
    "AbsenceFields",
    "CannotCoverItem",
    "Clarify",
    "ClarifyDeclaration",
    "Coverage",
    "CoverageDeclaration",
    "CoverageItem",
    "CoverageLedger",
    "CoveredResult",
    "DescribedResultDeclaration",
    "DescribedResultFields",
    "Edge",
    "EdgesDeclaration",
    "Fact",
    "FactsDeclaration",
    "Grain",
    "InProgressItem",
    "Period",
    "PeriodOnWire",
    "PeriodSpan",
    "Provenance",
    "Render",
    "SemanticClarify",
    "SemanticCoverage",
    "SemanticGrain",
    "SemanticProvenance",
    "SemanticRender",
    "SeriesDeclaration",
    "SeriesPoint",
    "ToolAbsence",
    "ToolDefinition",
    "ToolDefinitionFields",
    "ToolResultClass",
    "ToolSemantics",
]

_Content = TypeVar("_Content")

# ---------------------------------------------------------------------------
# Parts of a declaration (camelCase)
# ---------------------------------------------------------------------------


class Grain(TypedDict, total=False):
    """What one value MEANS. Required with ``series``; every key optional, but the
    runtime refuses a grain that states none, and ``isCounter`` must be stated when
    ``aggregation`` is counter-looking (``sum``, ``count``, ``total``, ...)."""

    interval: str
    """The collection interval the values live on (``"30m"``, ``"1h"``, ``"daily"``)."""
    aggregation: str
    """How the values were folded (``"avg"``, ``"max"``, ``"sum"``, ``"count"``, ...)."""
    isCounter: bool
    """Whether the values are cumulative readings a reader must never add together."""
    collapsed: str
    """What was folded away (``"per-port rows collapsed to per-switch"``)."""


class Provenance(TypedDict):
    """Where the values came from and how old they are. Required with ``series`` or
    ``facts``."""

    measuredAt: str
    """When the WORLD was measured, in the tool's own words, taken from the data
    (never parsed; a date typed into the source is the linter's SEM203)."""
    ageSeconds: NotRequired[float]
    """How stale the data was when the tool answered: finite and >= 0."""
    source: str
    """The system of record the values were read from."""
    sourceExportDate: NotRequired[str]
    """For file-fed collectors: the export the values rode in on."""


class CoverageItem(TypedDict):
    """One piece of ground in ``checked`` or ``notChecked`` (a bare non-empty string
    is accepted too), and the rendered item on the wire."""

    what: str
    """The source, window, filter or population. Non-empty."""
    why: NotRequired[str]
    """Why it sits where it does; optional outside ``cannotCover``."""


class CannotCoverItem(TypedDict):
    """One piece of ground no call to this tool will ever reach: a ``cannotCover``
    item, whose ``why`` is required (a blind spot with no reason cannot be acted on)."""

    what: str
    why: str


class Coverage(TypedDict, total=False):
    """The coverage part of :data:`DescribedResultDeclaration`: the three ground lists."""

    checked: Sequence[str | CoverageItem]
    """Ground this result actually stands on."""
    notChecked: Sequence[str | CoverageItem]
    """Ground this call could have covered and did not."""
    cannotCover: Sequence[CannotCoverItem]
    """Ground no call to this tool will ever reach; every item says why."""


class Clarify(TypedDict):
    """A question the result hands back instead of picking silently."""

    question: str
    candidates: Sequence[object]
    """What the question chooses between; may be empty (an open question)."""


class Render(TypedDict):
    """Hints for a UI; the model never reads them."""

    default: str
    """The default presentation (``"table"``, ``"chart"``, ``"prose"``, ...)."""
    columns: NotRequired[Sequence[str]]
    sort: NotRequired[str]
    filterNote: NotRequired[str]
    chartHint: NotRequired[str]


PeriodSpan = TypedDict("PeriodSpan", {"from": str, "to": str})
"""Two ISO 8601 instants with a zone, ``from`` not after ``to``."""


class Period(TypedDict):
    """What time the read behind a ``coverage()`` result covered."""

    queried: PeriodSpan
    """The instants of the read that produced this result."""
    held: PeriodSpan | Literal["unknown"]
    """What the store holds, or ``"unknown"`` said out loud."""
    readAt: NotRequired[str]
    """When the read ran: an ISO 8601 instant with a zone."""


class InProgressItem(TypedDict):
    """Something the read found still running (its outcome not known yet)."""

    what: str
    why: NotRequired[str]
    count: NotRequired[int]
    """How many things this item stands for: a whole number >= 1."""


# ---------------------------------------------------------------------------
# Rows
# ---------------------------------------------------------------------------


class SeriesPoint(TypedDict):
    """One measured point."""

    t: str | float
    """The tool's own clock words: an ISO string or an epoch number."""
    entity: str
    """What was measured."""
    metric: str
    """The measurement's name."""
    value: float | str | bool | None
    """The reading."""


# ``extra_items`` (PEP 728): the row's other keys are the tool's own columns.
# mypy does not read it yet, which is why the mints take rows as mappings.
class Fact(TypedDict, extra_items=object):  # type: ignore[call-arg]
    """One row of typed facts about one entity: ``entity`` plus the tool's own columns."""

    entity: str


Edge = TypedDict(  # type: ignore[misc]
    "Edge", {"from": str, "to": str, "kind": str}, extra_items=object
)
"""One typed relationship, ``{"from", "to", "kind"}`` plus the tool's own columns."""

_Row: TypeAlias = Mapping[str, object]
"""A facts or edges row as the mints take it (see :class:`Fact`, :class:`Edge`)."""

# ---------------------------------------------------------------------------
# The declarations
# ---------------------------------------------------------------------------


class SeriesDeclaration(TypedDict, total=False):
    """A described result that carries ``series``: ``grain`` and ``provenance`` required."""

    series: Required[Sequence[SeriesPoint]]
    facts: Sequence[_Row]
    edges: Sequence[_Row]
    grain: Required[Grain]
    provenance: Required[Provenance]
    coverage: Coverage
    clarify: Clarify | None
    render: Render


class FactsDeclaration(TypedDict, total=False):
    """A described result that carries ``facts`` and no ``series``: ``provenance`` required."""

    facts: Required[Sequence[_Row]]
    edges: Sequence[_Row]
    grain: Grain
    provenance: Required[Provenance]
    coverage: Coverage
    clarify: Clarify | None
    render: Render


class EdgesDeclaration(TypedDict, total=False):
    """A described result that carries only ``edges`` as data: no provenance needed."""

    edges: Required[Sequence[_Row]]
    grain: Grain
    provenance: Provenance
    coverage: Coverage
    clarify: Clarify | None
    render: Render


class ClarifyDeclaration(TypedDict, total=False):
    """A clarify-only described result: a question, no data, no provenance needed."""

    grain: Grain
    provenance: Provenance
    coverage: Coverage
    clarify: Required[Clarify]
    render: Render


DescribedResultDeclaration: TypeAlias = (
    SeriesDeclaration | FactsDeclaration | EdgesDeclaration | ClarifyDeclaration
)
"""What ``described_result()`` takes, as keyword arguments or one dict: at least one
of ``series``, ``facts``, ``edges`` or a non-None ``clarify``; ``provenance`` with
series or facts; ``grain`` with series. No ``notCovered``: it is derived from
``coverage``."""


class DescribedResultFields(TypedDict, total=False):
    """What ``described_result()`` takes as keyword arguments: every field, each optional.

    One signature whose keywords are typed by the parts is what lets mypy name the key
    at fault in a part (``Extra key "measured_at" for TypedDict "Provenance"``); the
    shapes of :data:`DescribedResultDeclaration` (provenance with facts, grain with
    series) type the one positional dict. The combinations are the linter's and the
    runtime's ground for keyword calls."""

    series: Sequence[SeriesPoint]
    facts: Sequence[_Row]
    edges: Sequence[_Row]
    grain: Grain
    provenance: Provenance
    coverage: Coverage
    clarify: Clarify | None
    render: Render


class AbsenceDeclaration(TypedDict):
    """What ``absent()`` takes: what was looked for, and the ground that was searched."""

    what: str
    """What was looked for, in the author's words. Non-empty."""
    checked: Sequence[str | CoverageItem]
    """The ground that WAS searched. Non-empty."""
    notChecked: NotRequired[Sequence[str | CoverageItem]]
    cannotCover: NotRequired[Sequence[CannotCoverItem]]
    tryInstead: NotRequired[str]
    """Where to go instead, in one sentence."""


class AbsenceFields(TypedDict, total=False):
    """What ``absent()`` takes as keyword arguments: the keys of
    :class:`AbsenceDeclaration`, each optional to the type checker (the positional dict
    form has none of them as keywords); a missing ``what`` or ``checked`` is the
    linter's SEM404 and the runtime's refusal."""

    what: str
    checked: Sequence[str | CoverageItem]
    notChecked: Sequence[str | CoverageItem]
    cannotCover: Sequence[CannotCoverItem]
    tryInstead: str


class CoverageDeclaration(TypedDict, total=False):
    """What ``coverage(content, ...)`` takes: the boundary of a verdict. The runtime
    refuses one that declares nothing, and ``inProgress`` without ``checked``."""

    checked: Sequence[str | CoverageItem]
    notChecked: Sequence[str | CoverageItem]
    cannotCover: Sequence[CannotCoverItem]
    period: Period
    inProgress: Sequence[str | InProgressItem]


ToolResultClass: TypeAlias = Literal["triage", "inventory"]
"""The closed set of a tool's ``resultClass``, as ``vocabulary.RESULT_CLASSES`` lists it."""


class ToolDefinition(TypedDict):
    """What ``define_tool()`` takes, as keyword arguments or one dict."""

    name: str
    """The tool's name, as the model will call it. Non-empty."""
    description: NotRequired[str]
    inputSchema: NotRequired[Mapping[str, object]]
    """The JSON schema of the tool's arguments."""
    resultClass: NotRequired[ToolResultClass]
    """What kind of answer the tool gives; the gate's class rules key on it."""
    execute: Callable[..., Any]
    """The function that runs the tool; the tool returns its value unchanged."""


class ToolDefinitionFields(TypedDict, total=False):
    """What ``define_tool()`` takes as keyword arguments: the keys of
    :class:`ToolDefinition`, each optional to the type checker; a missing ``name`` or
    ``execute`` is refused at definition."""

    name: str
    description: str
    inputSchema: Mapping[str, object]
    resultClass: ToolResultClass
    execute: Callable[..., Any]


# ---------------------------------------------------------------------------
# The wire (snake_case): what the mints return
# ---------------------------------------------------------------------------


class SemanticGrain(TypedDict, total=False):
    """:class:`Grain` on the wire."""

    interval: str
    aggregation: str
    is_counter: bool
    collapsed: str


class SemanticProvenance(TypedDict):
    """:class:`Provenance` on the wire."""

    measured_at: str
    age_seconds: NotRequired[float]
    source: str
    source_export_date: NotRequired[str]


class SemanticCoverage(TypedDict, total=False):
    """:class:`Coverage` on the wire: normalized items, empty lists left out."""

    checked: list[CoverageItem]
    not_checked: list[CoverageItem]
    cannot_cover: list[CoverageItem]


class SemanticClarify(TypedDict):
    """:class:`Clarify` on the wire."""

    question: str
    candidates: list[object]


class SemanticRender(TypedDict):
    """:class:`Render` on the wire."""

    default: str
    columns: NotRequired[list[str]]
    sort: NotRequired[str]
    filter_note: NotRequired[str]
    chart_hint: NotRequired[str]


class ToolSemantics(TypedDict):
    """The semantic envelope ``described_result()`` returns: snake_case, marked
    ``af_semantics``, with the ``not_covered`` lines composed from coverage and the
    static note. Saved records keep it as it is."""

    af_semantics: Literal[True]
    series: NotRequired[list[SeriesPoint]]
    facts: NotRequired[list[Mapping[str, Any]]]
    edges: NotRequired[list[Mapping[str, Any]]]
    grain: NotRequired[SemanticGrain]
    provenance: NotRequired[SemanticProvenance]
    coverage: NotRequired[SemanticCoverage]
    not_covered: NotRequired[list[str]]
    """Derived from coverage: one line per not-checked or cannot-cover item."""
    clarify: NotRequired[SemanticClarify | None]
    render: NotRequired[SemanticRender]
    note: str


class ToolAbsence(TypedDict):
    """The rendered absence ``absent()`` returns."""

    af_absent: Literal[True]
    outcome: Literal["nothing_found"]
    looked_for: str
    checked: list[CoverageItem]
    not_checked: NotRequired[list[CoverageItem]]
    cannot_cover: NotRequired[list[CoverageItem]]
    retry_returns_the_same: Literal[True]
    try_instead: NotRequired[str]
    note: str


class PeriodOnWire(TypedDict):
    """:class:`Period` on the wire."""

    queried: PeriodSpan
    held: PeriodSpan | Literal["unknown"]
    read_at: NotRequired[str]


class CoverageLedger(TypedDict):
    """The boundary inside ``af_coverage``: the lists that are not empty, then the note."""

    checked: NotRequired[list[CoverageItem]]
    not_checked: NotRequired[list[CoverageItem]]
    cannot_cover: NotRequired[list[CoverageItem]]
    period: NotRequired[PeriodOnWire]
    in_progress: NotRequired[list[InProgressItem]]
    note: str


class CoveredResult(TypedDict, Generic[_Content]):
    """What ``coverage(content, ...)`` returns: the boundary first, then ``content``
    untouched."""

    af_coverage: CoverageLedger
    result: _Content
