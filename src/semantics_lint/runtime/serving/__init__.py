"""Serving a result to an agent, the runtime's top layer (on the envelope, the mints and
the claims check): the tool message (``message``, whose public names are importable from
here), the run record (``record``) and its OpenTelemetry spans (``tracing``)."""

from semantics_lint.runtime.serving.message import *  # noqa: F403
from semantics_lint.runtime.serving.message import __all__ as __all__
