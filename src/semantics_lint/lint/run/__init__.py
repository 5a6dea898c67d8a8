"""The runner: paths in, findings reported, fixes written.

Files found (``discovery``), configuration
(``config``, ``selection``), one job per file (``jobs``, ``pool``), the results cache
(``cache``, ``user_key``), ``# noqa`` (``suppress``), fixes (``fix``, ``write``), and
``runner``, which orchestrates them for files on disk; ``texts``, the same for a file
held in memory; ``outcomes``, what both add to a run's result; ``results``, what a run
is asked and gives.
"""
