"""``semantics_lint.runtime.record``, the run record, where the docs import it from: the module
is :mod:`semantics_lint.runtime.serving.record`, whose public names are importable from here."""

from semantics_lint.runtime.serving.record import *  # noqa: F403
from semantics_lint.runtime.serving.record import __all__ as __all__
