from semantics_lint.cli import run

run()
