"""Entry points for pre-commit hooks that need more than the ``semantics-lint`` command.

pre-commit passes every matching file to a hook at once, but the gate
``semantics-lint check-semantics CATALOG.json`` judges one catalog per run. The
``check-semantics`` hook (``.pre-commit-hooks.yaml``) therefore runs the console script
``semantics-lint-check-semantics``, which is :func:`check_semantics_main`: it runs the
gate once per catalog, with the same options, and exits with the worst exit code
(2 input error > 1 findings > 0 ok), so the hook fails when any catalog fails.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

__all__ = ["check_semantics_main"]

_USAGE = "usage: semantics-lint-check-semantics [--strict] [--json] CATALOG.json [CATALOG.json ...]"


def _gate(arguments: list[str]) -> int:
    """Run ``semantics-lint check-semantics ARGUMENTS`` in this process; its exit code."""
    # The gate's own command, not the whole CLI group: the hook needs nothing of the
    # linter, so it does not import it.
    from semantics_lint.runtime.cli import check_semantics_command

    try:
        check_semantics_command.main(args=arguments, prog_name="semantics-lint check-semantics")
    except SystemExit as exit_:
        code = exit_.code
        if code is None:
            return 0
        if isinstance(code, int):
            return code
        # ``sys.exit("message")`` prints the message and means failure.
        print(code, file=sys.stderr)
        return 1
    return 0


def _severity(code: int) -> int:
    """Order exit codes by how bad they are: 2 (input error) > 1 (findings) > 0."""
    return {0: 0, 1: 1}.get(code, 2)


def check_semantics_main(argv: Sequence[str] | None = None) -> int:
    """Run the check-semantics gate on every catalog in ``argv``; the worst exit code.

    The console script calls this with no argument (``sys.argv`` is read) and exits
    with what it returns. Options are passed through to the gate as given, so an
    unknown one is the gate's usage error (exit 2).

    ``argv`` holds options (``--strict``, ``--json``, given once for all catalogs) and
    catalog paths, in any order, as pre-commit appends file names after the hook's
    ``args``. ``--`` ends the options. With several catalogs and text output, each
    report is preceded by a line naming its catalog.

    The gate takes exactly one catalog and (like the reference's CLI) no ``--``, so a
    path that starts with ``-`` is handed over as ``./-name`` to stay a path.
    """
    arguments = list(sys.argv[1:] if argv is None else argv)
    options: list[str] = []
    paths: list[str] = []
    only_paths = False
    for argument in arguments:
        if only_paths or not argument.startswith("-") or argument == "-":
            paths.append(argument)
        elif argument == "--":
            only_paths = True
        elif argument in ("-h", "--help"):
            print(_USAGE)
            print("Runs `semantics-lint check-semantics` on each catalog; exit 0 ok, 1 a")
            print("catalog failed the gate, 2 input error.")
            return 0
        else:
            options.append(argument)
    if not paths:
        print(_USAGE, file=sys.stderr)
        print("error: no catalog given", file=sys.stderr)
        return 2

    worst = 0
    for path in paths:
        if len(paths) > 1 and "--json" not in options:
            print(f"== {path}", flush=True)
        code = _gate([*options, f"./{path}" if path.startswith("-") else path])
        sys.stdout.flush()
        if _severity(code) > _severity(worst):
            worst = code
    return worst
