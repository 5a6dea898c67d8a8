from semantics_lint.cli import main

main()
