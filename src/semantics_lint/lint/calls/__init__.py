"""Our calls in a file, read as a rule reads them (above ``core`` and ``resolve``).

Where the calls are (``locate``), what a rule reads of one (``context``: the file's
index and resolver, the call site; ``declaration``: parts, fields, rows), a file's tools
linked to the results they return (``tools``), and the runtime's checks (``verdicts``,
the linter's one door into ``runtime/``).
"""
