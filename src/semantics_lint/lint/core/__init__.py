"""The engine's core: one file's bytes in, its findings out (``core.engine``).

Decoding and parsing (``source``), the one walk that indexes a file (``index``), our
calls (``locate``), what a rule reads (``context``, ``declaration``), the runtime's
checks (``verdicts``, the core's one door into ``runtime/``) and the batched pass of
the rules (``engine``).
"""
