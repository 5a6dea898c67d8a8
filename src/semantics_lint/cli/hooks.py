"""Entry points for pre-commit hooks that need more than the ``semantics-lint`` command.

pre-commit passes every matching file to a hook at once, after the hook's ``args``.
The ``check-semantics`` hook (``.pre-commit-hooks.yaml``) runs the console script
``semantics-lint-check-semantics``, which is :func:`check_semantics_main`: it hands
every catalog to one run of the gate, which judges them together into one report
(each finding naming its catalog) and exits 0 ok, 1 a catalog failed the gate,
2 a catalog could not be judged (then each such one is named on stderr).
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
    from semantics_lint.cli.check_semantics import check_semantics_command

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


def check_semantics_main(argv: Sequence[str] | None = None) -> int:
    """Run the check-semantics gate on every catalog in ``argv``; its exit code.

    The console script calls this with no argument (``sys.argv`` is read) and exits
    with what it returns. Options (``--strict``, ``--json``, ``--all-findings``) are
    passed through to the gate as given, so an unknown one is the gate's usage
    error (exit 2); ``--`` ends them. Every other argument is a catalog path, even
    one that starts with ``-``, as pre-commit appends file names after the hook's
    ``args``.
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
            print("Runs `semantics-lint check-semantics` on the catalogs together; exit 0 ok,")
            print("1 a catalog failed the gate, 2 input error.")
            return 0
        else:
            options.append(argument)
    if not paths:
        print(_USAGE, file=sys.stderr)
        print("error: no catalog given", file=sys.stderr)
        return 2
    return _gate([*options, "--", *paths])
