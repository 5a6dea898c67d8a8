"""``semantics_lint.runtime.tracing``, the run's OpenTelemetry spans, where the docs import it from: the module
is :mod:`semantics_lint.runtime.serving.tracing`, whose public names are importable from here."""

from semantics_lint.runtime.serving.tracing import *  # noqa: F403
from semantics_lint.runtime.serving.tracing import __all__ as __all__
