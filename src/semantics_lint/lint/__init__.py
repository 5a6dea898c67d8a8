"""The static linter: LibCST engine, rules, fixes, configuration and output."""
