"""The linter's floor: findings, settings, decoding, parsing and the one walk that indexes a file.

The finding model (``model``), the settings and the prefilter (``settings``), ``ast``
helpers (``syntax``), scopes and bindings (``scopes``), decoding and lines
(``source``) and the index (``index``). It imports only the vocabulary; the resolver,
our calls, the rules and the engine (``semantics_lint.lint.engine``) stand on it.
"""
