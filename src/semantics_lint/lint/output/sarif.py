"""SARIF 2.1.0: one log, one run, the registry's rules, one result per finding.

Locations are URIs, percent-encoded (a space, ``%``, ``#``, a backslash or a
non-ASCII letter in a file name cannot break them): a file shown under an absolute
path becomes a ``file:`` URI (``Path.as_uri()``); a relative one stays relative to
``%SRCROOT%``, which ``originalUriBaseIds`` defines as the folder the run started in,
so a consumer resolves it wherever the log is read. Rule help is the rule's
docstring dedented (``inspect.cleandoc``), as text and as Markdown.
``informationUri`` is the project's own address from its metadata, and is left out
when the metadata names none.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any
from urllib.parse import quote

from semantics_lint.lint.core.model import Finding, Fix, Severity
from semantics_lint.lint.output.rule_metadata import (
    RuleInfo,
    all_rule_infos,
    information_uri,
    project_urls,
    rule_info,
)

TOOL_NAME = "semantics-lint"
SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
SARIF_VERSION = "2.1.0"
SRCROOT = "%SRCROOT%"


def artifact_location(filename: str, raw: str | None = None) -> dict[str, str]:
    """The SARIF ``artifactLocation`` of a file shown as ``filename``.

    ``raw`` is the file's real name when the shown one is escaped (a name that is not
    UTF-8 or holds a control character): the URI then encodes its real bytes.
    """
    name = raw if raw is not None else filename
    if os.path.isabs(name):
        return {"uri": Path(name).as_uri()}
    posix = name if os.sep == "/" else name.replace(os.sep, "/")
    return {"uri": quote(os.fsencode(posix), safe="/"), "uriBaseId": SRCROOT}


def _folder_uri(folder: str) -> str:
    uri = Path(folder).as_uri()
    return uri if uri.endswith("/") else uri + "/"


def _message(finding: Finding) -> dict[str, str]:
    """The result's message: the finding's line as text (what code scanning lists);
    with its help, the same line and the help as Markdown (what a result's page shows)."""
    if not finding.help:
        return {"text": finding.message}
    return {"text": finding.message, "markdown": f"{finding.message}\n\n{finding.help}"}


def _level(severity: Severity) -> str:
    return "warning" if severity is Severity.WARNING else "error"


def _rule_descriptor(code: str, info: RuleInfo, rules_page: str | None) -> dict[str, Any]:
    """A rule as a SARIF ``reportingDescriptor`` (``rules_page``: the rules' documentation)."""
    rule: dict[str, Any] = {
        "id": code,
        "name": info.name,
        "shortDescription": {"text": info.summary},
        "fullDescription": {"text": info.help},
        "help": {"text": info.help, "markdown": info.help},
        "defaultConfiguration": {"level": _level(info.severity)},
        "properties": {"fix": info.fix},
    }
    if rules_page is not None:
        rule["helpUri"] = f"{rules_page.split('#', 1)[0]}#{code.lower()}-{info.name}"
    return rule


def _fix_object(fix: Fix, location: dict[str, Any]) -> dict[str, Any]:
    """A finding's fix as a SARIF ``fix``: its edits as replacements in one artifact."""
    return {
        "description": {"text": fix.message},
        "artifactChanges": [
            {
                "artifactLocation": location,
                "replacements": [
                    {
                        "deletedRegion": {
                            "startLine": edit.start.line,
                            "startColumn": edit.start.column + 1,
                            "endLine": edit.end.line,
                            "endColumn": edit.end.column + 1,
                        },
                        "insertedContent": {"text": edit.content},
                    }
                    for edit in fix.edits
                ],
            }
        ],
    }


def sarif_log(
    findings: Sequence[Finding],
    *,
    cwd: str | None = None,
    raw_names: Mapping[str, str] | None = None,
) -> dict[str, Any]:
    """A SARIF 2.1.0 log of ``findings`` (relative names are relative to ``cwd``).

    ``raw_names`` maps an escaped file name to the real one (see :func:`artifact_location`).
    """
    infos = {info.code: info for info in all_rule_infos()}
    for f in findings:
        if f.code not in infos:
            infos[f.code] = rule_info(f.code)
    codes = sorted(infos)
    index = {code: i for i, code in enumerate(codes)}
    rules_page = project_urls().get("rules")
    rules = [_rule_descriptor(code, infos[code], rules_page) for code in codes]
    results = []
    relative = False
    for f in findings:
        location = artifact_location(f.filename, (raw_names or {}).get(f.filename))
        relative = relative or "uriBaseId" in location
        result: dict[str, Any] = {
            "ruleId": f.code,
            "ruleIndex": index[f.code],
            "level": _level(f.severity),
            "message": _message(f),
            "locations": [
                {
                    "physicalLocation": {
                        "artifactLocation": location,
                        "region": {
                            "startLine": f.start.line,
                            "startColumn": f.start.column + 1,
                            "endLine": f.end.line,
                            "endColumn": f.end.column + 1,
                        },
                    }
                }
            ],
        }
        if f.fix is not None:
            result["fixes"] = [_fix_object(f.fix, location)]
        results.append(result)
    import semantics_lint

    driver: dict[str, Any] = {"name": TOOL_NAME, "version": semantics_lint.__version__}
    home = information_uri()
    if home is not None:
        driver["informationUri"] = home
    driver["rules"] = rules
    run: dict[str, Any] = {"tool": {"driver": driver}}
    if relative:
        run["originalUriBaseIds"] = {SRCROOT: {"uri": _folder_uri(cwd or os.getcwd())}}
    run["columnKind"] = "unicodeCodePoints"
    run["results"] = results
    return {"$schema": SARIF_SCHEMA, "version": SARIF_VERSION, "runs": [run]}


def format_sarif(
    findings: Sequence[Finding],
    *,
    cwd: str | None = None,
    raw_names: Mapping[str, str] | None = None,
) -> str:
    log = sarif_log(findings, cwd=cwd, raw_names=raw_names)
    return json.dumps(log, indent=2, ensure_ascii=False) + "\n"
