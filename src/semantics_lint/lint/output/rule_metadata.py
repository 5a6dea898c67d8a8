"""What the outputs say about a rule: its name, severity, summary, help and URL.

Read from the rule registry (which imports the rule modules) only by the formats that
describe rules (SARIF, statistics, ``rule --all``), never by the ones that only print
findings.

A rule's URL is its section of the rule reference: ``<Rules URL>#<anchor>`` when the
installed project's metadata names a ``Rules`` project URL (``[project.urls]`` in
``pyproject.toml``), else the ``file:`` URI of the copy of the reference shipped in
the package (``semantics_lint/rules.md``, written by ``python -m semantics_lint.gen``
beside ``docs/rules.md``).
"""

from __future__ import annotations

import inspect
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from semantics_lint.lint.core.model import Severity

SHIPPED_RULES_DOC = Path(__file__).resolve().parent.parent.parent / "rules.md"
"""The rule reference inside the installed package."""

RULES_URL_LABEL = "rules"
HOME_URL_LABELS = ("homepage", "home", "source", "repository")


@dataclass(frozen=True, slots=True)
class RuleInfo:
    """What the outputs need to know about a code."""

    code: str
    name: str
    severity: Severity
    summary: str
    help: str
    fix: str = "none"


def registry() -> dict[str, Any]:
    """Every registered rule class by code."""
    from semantics_lint.lint import rules

    return {rule.code: rule for rule in getattr(rules, "ALL_RULES", ())}


def rule_info(code: str) -> RuleInfo:
    """The registry's description of ``code``; a neutral one for a code it lacks."""
    rule = registry().get(code)
    if rule is None:
        return RuleInfo(code, code.lower(), Severity.ERROR, code, code)
    doc = inspect.cleandoc(getattr(rule, "__doc__", None) or "")
    summary = first_paragraph(doc) or str(getattr(rule, "name", code))
    severity = getattr(rule, "severity", Severity.ERROR)
    if not isinstance(severity, Severity):
        severity = Severity(str(severity))
    name = str(getattr(rule, "name", code))
    return RuleInfo(code, name, severity, summary, doc or summary, str(getattr(rule, "fix", "none")))


def all_rule_infos() -> list[RuleInfo]:
    """Every registered rule, sorted by code."""
    return [rule_info(code) for code in sorted(registry())]


def first_paragraph(doc: str) -> str:
    """The first paragraph of a rule docstring, without a "What it does" heading."""
    paragraphs = [p.strip() for p in doc.split("\n\n") if p.strip()]
    for paragraph in paragraphs:
        lines = [line.strip() for line in paragraph.splitlines()]
        lines = [line for line in lines if line and not line.startswith("#")]
        text = " ".join(line for line in lines if not set(line) <= set("-="))
        if text:
            return text
    return ""


def anchor(code: str, name: str) -> str:
    """The heading anchor of a rule's section in the reference (``sem102-snake-case-...``)."""
    return f"{code.lower()}-{name}"


@lru_cache(maxsize=1)
def project_urls() -> dict[str, str]:
    """The installed project's URLs by lower-case label (``Project-URL`` metadata)."""
    from importlib.metadata import PackageNotFoundError, metadata

    try:
        meta = metadata("semantics-lint")
    except PackageNotFoundError:
        return {}
    urls: dict[str, str] = {}
    for entry in meta.get_all("Project-URL") or ():
        label, _, url = entry.partition(",")
        if url.strip():
            urls[label.strip().lower()] = url.strip()
    home = next(iter(meta.get_all("Home-page") or ()), None)
    if home and home.strip() and home.strip().upper() != "UNKNOWN":
        urls.setdefault("homepage", home.strip())
    return urls


def information_uri() -> str | None:
    """The project's own address from its metadata, or None when it names none."""
    urls = project_urls()
    for label in HOME_URL_LABELS:
        if label in urls:
            return urls[label]
    return None


def rules_page() -> str | None:
    """The URL of the rule reference: the ``Rules`` project URL, else the shipped copy."""
    url = project_urls().get(RULES_URL_LABEL)
    if url is not None:
        return url
    if SHIPPED_RULES_DOC.is_file():
        return SHIPPED_RULES_DOC.as_uri()
    return None


@lru_cache(maxsize=None)
def rule_url(code: str) -> str | None:
    """The URL of ``code``'s section of the rule reference, or None for an unknown code."""
    rule = registry().get(code)
    page = rules_page()
    if rule is None or page is None:
        return None
    return f"{page.split('#', 1)[0]}#{anchor(code, str(rule.name))}"
