"""The runner: paths in, findings reported, fixes written.

Files found (``discovery``), configuration
(``config``, ``selection``), one job per file (``jobs``, ``pool``), the results cache
(``cache``, ``user_key``), ``# noqa`` (``suppress``), fixes (``fix``, ``write``), and
``runner``, which orchestrates them.
"""
