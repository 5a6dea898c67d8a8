"""The answer checked against what the run settled, on the envelope layer: the check
(``check``, whose public names are importable from here) and the answer read as JSON
data (``answer``)."""

from semantics_lint.runtime.claims.check import *  # noqa: F403
from semantics_lint.runtime.claims.check import __all__ as __all__
