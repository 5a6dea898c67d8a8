"""The lines about the findings rather than the findings: statistics, the summary, fixes made.

* statistics (``--statistics``): one line per code, ruff's layout
  ``count<TAB>code<TAB>[*] name``, most frequent first (``[*]``: the flags given
  fix them; ``[-]``: only ``--unsafe-fixes`` would; ``[ ]``: no fix); or a JSON list;
* ``--show-fixes``: what ``--fix`` changed, per file; ``--fix-only``'s and ``--diff``'s
  one-line summaries.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping

from semantics_lint.lint.core.model import Finding
from semantics_lint.lint.output.human import is_fixable


def plural(count: int, word: str, many: str | None = None) -> str:
    """``1 error``, ``2 errors`` (``many`` for an irregular plural)."""
    return f"{count} {word}" if count == 1 else f"{count} {many or word + 's'}"


def statistics(findings: Iterable[Finding], unsafe: bool) -> list[tuple[str, str, int, int, int]]:
    """``(code, name, count, fixable, hidden)`` per code, most frequent first, then by code.

    ``fixable``: how many the flags given would fix; ``hidden``: how many more only
    ``--unsafe-fixes`` would.
    """
    from semantics_lint.lint.output.rule_metadata import rule_info

    findings = list(findings)
    counts = Counter(f.code for f in findings)
    fixable = Counter(f.code for f in findings if is_fixable(f, unsafe))
    hidden = Counter(f.code for f in findings if f.fix is not None and not is_fixable(f, unsafe))
    ordered = sorted(counts, key=lambda code: (-counts[code], code))
    return [(code, rule_info(code).name, counts[code], fixable[code], hidden[code]) for code in ordered]


def format_statistics(findings: Iterable[Finding], output_format: str, unsafe: bool) -> str:
    """ruff's ``--statistics``: ``count<TAB>code<TAB>[*] name`` (or a JSON list)."""
    stats = statistics(findings, unsafe)
    if output_format in ("json", "json-lines"):
        import json

        rows = [
            {
                "code": code,
                "name": name,
                "count": count,
                "fixable": fixable > 0,
                "fixable_count": fixable,
            }
            for code, name, count, fixable, _ in stats
        ]
        if output_format == "json-lines":
            return "".join(json.dumps(row, separators=(",", ":")) + "\n" for row in rows)
        return json.dumps(rows, indent=2) + "\n"
    if not stats:
        return ""
    count_width = max(len(str(stat[2])) for stat in stats)
    code_width = max(len(stat[0]) for stat in stats)
    lines = []
    for code, name, count, fixable, hidden in stats:
        mark = "[*]" if fixable else "[-]" if hidden else "[ ]"
        lines.append(f"{count:>{count_width}}\t{code:<{code_width}}\t{mark} {name}\n")
    return "".join(lines)


def fixed_summary(fixed: int) -> str:
    """``--fix-only``'s summary: ``Fixed 2 errors.``"""
    return f"Fixed {plural(fixed, 'error')}.\n" if fixed else "No errors fixed.\n"


def would_fix_summary(fixed: int, changed_files: int) -> str:
    """``--diff``'s summary: ``Would fix 2 errors in 1 file.``"""
    if not fixed:
        return "No errors would be fixed.\n"
    return f"Would fix {plural(fixed, 'error')} in {plural(changed_files, 'file')}.\n"


def format_fixes(applied: Mapping[str, int]) -> str:
    """What ``--fix`` changed (``--show-fixes``): how many findings each file had fixed.

    ``applied`` maps a file's display name to that count; files with none are left out.
    """
    files = {name: count for name, count in applied.items() if count}
    if not files:
        return "No errors fixed.\n"
    lines = [f"Fixed {plural(sum(files.values()), 'error')}:"]
    lines.extend(f"- {name}: {plural(files[name], 'fix', 'fixes')}" for name in sorted(files))
    return "\n".join(lines) + "\n"
