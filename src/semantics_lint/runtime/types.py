"""``semantics_lint.runtime.types``, the declarations and envelopes as types, where the docs import it from: the module
is :mod:`semantics_lint.runtime.envelope.types`, whose public names are importable from here."""

from semantics_lint.runtime.envelope.types import *  # noqa: F403
from semantics_lint.runtime.envelope.types import __all__ as __all__
