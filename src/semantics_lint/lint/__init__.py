"""The static linter: the ``ast`` engine, rules, resolver, fixes, configuration and output."""
