"""Every served result as an OpenTelemetry span, beside the framework's own tool span.

When ``opentelemetry-api`` is installed (the ``otel`` extra) and the application has a
tracer provider, :func:`trace_served` turns one served result into one span named
``semantics {tool}``, from the tracer ``semantics_lint``, a child of the current span
(the framework's tool span, where it has one), started and ended where the result is
served. It carries:

* ``semantics_lint.tool.name``, ``semantics_lint.result.kind`` (a ``ToolMessage`` kind:
  ``semantics``, ``absent``, ``coverage``, ``malformed``, ``data``, ``refusal``);
* ``semantics_lint.fact.count``: the number of facts of an envelope that has facts;
* ``semantics_lint.envelope.bytes`` and ``semantics_lint.envelope.sha256``: the size
  and digest of the UTF-8 JSON text of what the run record keeps (the whole envelope,
  the value, or a refusal's text), written by ``json_text``;
* ``semantics_lint.envelope.truncated``: whether that text is over the cap;
* ``output.value``: that text, when content is captured; over the cap, a JSON object
  that says so (:func:`capped_value`); ``output.mime_type``: ``application/json``.

A refusal's span has the status ERROR, with the refusal's text as its description.

Nothing here imports OpenTelemetry until a result is served; the import is tried once.
When it is not installed, when there is no tracer provider (OpenTelemetry's own no-op
provider) or when the provider's span does not record (a sampler dropped it), nothing
is written, hashed or measured.

Read at each served result, from the environment:

* ``SEMANTICS_LINT_OTEL_CAPTURE_CONTENT``: ``false`` (or ``0``, ``no``, ``off``) leaves
  ``output.value`` out and keeps every other attribute; unset, ``true``, ``1``,
  ``yes``, ``on`` capture it; any other value is read as ``false``, with a warning;
* ``SEMANTICS_LINT_OTEL_MAX_VALUE_BYTES``: the cap on ``output.value``, in UTF-8 bytes
  (default 65,536; at least 1,024). When OpenTelemetry's own attribute length limit
  (``OTEL_SPAN_ATTRIBUTE_VALUE_LENGTH_LIMIT``, ``OTEL_ATTRIBUTE_VALUE_LENGTH_LIMIT``) is
  set lower, that limit is the cap, so the SDK never cuts the text itself.
"""

from __future__ import annotations

import hashlib
import json
import os
import warnings
from typing import TYPE_CHECKING, Any, Final

from semantics_lint.runtime.envelope.json_text import json_text, plain_text, wire_text
from semantics_lint.vocabulary import env_flag

if TYPE_CHECKING:
    from semantics_lint.runtime.claims.check import ClaimCheck
    from semantics_lint.runtime.serving.message import ToolMessage

__all__ = [
    "CAPTURE_CONTENT_ENV",
    "DEFAULT_MAX_VALUE_BYTES",
    "MAX_VALUE_BYTES_ENV",
    "TRACER_NAME",
    "capped_value",
    "capture_content",
    "current_tracer",
    "max_value_bytes",
    "served_attributes",
    "span_attributes",
    "trace_claims",
    "trace_served",
    "use_tracer_provider",
]

TRACER_NAME: Final = "semantics_lint"
"""The instrumentation scope of every span this module writes."""

CAPTURE_CONTENT_ENV: Final = "SEMANTICS_LINT_OTEL_CAPTURE_CONTENT"
MAX_VALUE_BYTES_ENV: Final = "SEMANTICS_LINT_OTEL_MAX_VALUE_BYTES"
DEFAULT_MAX_VALUE_BYTES: Final = 65_536
MIN_VALUE_BYTES: Final = 1_024
"""The smallest cap: room for the truncation object and a readable prefix."""

_SDK_LIMITS: Final = ("OTEL_SPAN_ATTRIBUTE_VALUE_LENGTH_LIMIT", "OTEL_ATTRIBUTE_VALUE_LENGTH_LIMIT")

TOOL_NAME: Final = "semantics_lint.tool.name"
RESULT_KIND: Final = "semantics_lint.result.kind"
FACT_COUNT: Final = "semantics_lint.fact.count"
ENVELOPE_BYTES: Final = "semantics_lint.envelope.bytes"
ENVELOPE_SHA256: Final = "semantics_lint.envelope.sha256"
ENVELOPE_TRUNCATED: Final = "semantics_lint.envelope.truncated"
OUTPUT_VALUE: Final = "output.value"
OUTPUT_MIME_TYPE: Final = "output.mime_type"
JSON_MIME_TYPE: Final = "application/json"


class _Tracing:
    """The one place this module keeps state: which OpenTelemetry, which provider.

    * ``api()``: the ``opentelemetry.trace`` module, imported at its first use by any
      function here (whichever runs first), or None when it is not installed (the
      import is tried once);
    * ``provider``: the provider given to :func:`use_tracer_provider`, or None for the
      global one, asked at each served result;
    * the last provider asked for a tracer, and its tracer.
    """

    __slots__ = ("_api", "_cached", "_tried", "provider")

    def __init__(self) -> None:
        self._api: Any = None
        self._tried = False
        self.provider: Any = None
        self._cached: tuple[Any, Any] | None = None

    def api(self) -> Any:
        if not self._tried:
            module: Any = None
            try:
                from opentelemetry import trace as module
            except ImportError:
                pass
            self._api, self._tried = module, True
        return self._api

    def tracer(self) -> Any:
        api = self.api()
        if api is None:
            return None
        provider = self.provider if self.provider is not None else api.get_tracer_provider()
        if isinstance(provider, (api.ProxyTracerProvider, api.NoOpTracerProvider)):
            return None
        cached = self._cached
        if cached is not None and cached[0] is provider:
            return cached[1]
        tracer = provider.get_tracer(TRACER_NAME)
        self._cached = (provider, tracer)
        return tracer


_TRACING: Final = _Tracing()


def use_tracer_provider(provider: Any) -> None:
    """Write the spans with ``provider`` (an OpenTelemetry ``TracerProvider``).

    By default the spans go to the global provider (``opentelemetry.trace.
    set_tracer_provider``), read at each served result. Give the provider here when
    the application passes one explicitly to its framework instead (Pydantic AI's
    ``InstrumentationSettings(tracer_provider=...)``); None goes back to the global one.
    """
    _TRACING.provider = provider


def current_tracer() -> Any:
    """The tracer a served result is traced with now, or None when no span can record:
    OpenTelemetry is not installed or no tracer provider is set (a provider's sampler
    may still drop a span)."""
    return _TRACING.tracer()


def trace_served(
    tool: str, message: ToolMessage, record_text: str | None = None, *, tracer: Any = None
) -> tuple[str, str] | None:
    """Write the span of one served result; its ``(trace_id, span_id)`` in lowercase hex.

    None when nothing records it: OpenTelemetry is not installed, there is no tracer
    provider, or the span is not recording. Then nothing else is done.
    ``record_text``: the JSON text of ``message.record`` when already written;
    ``tracer``: :func:`current_tracer`'s answer when already asked.
    """
    if tracer is None:
        tracer = current_tracer()
        if tracer is None:
            return None
    span = tracer.start_span(f"semantics {tool}")
    try:
        if not span.is_recording():
            return None
        attributes, error = span_attributes(tool, message, record_text=record_text)
        span.set_attributes(attributes)
        if error is not None:
            span.record_exception(error)
        if message.is_error:
            api = _TRACING.api()
            span.set_status(api.Status(api.StatusCode.ERROR, message.text))
        context = span.get_span_context()
        return format(context.trace_id, "032x"), format(context.span_id, "016x")
    finally:
        span.end()


def _kind(message: ToolMessage) -> str:
    kind = message.kind
    return str(getattr(kind, "value", kind))


def span_attributes(
    tool: str, message: ToolMessage, *, capture: bool | None = None, record_text: str | None = None
) -> tuple[dict[str, str | int | bool], Exception | None]:
    """:func:`served_attributes`, and None; for a record that is not JSON data (a
    message an adapter built by hand), the tool's name and the result's kind only, and
    the encoder's error: the span still says whose result it is, and serving goes on."""
    try:
        return served_attributes(tool, message, capture=capture, record_text=record_text), None
    except (TypeError, ValueError) as error:
        return {TOOL_NAME: tool, RESULT_KIND: _kind(message)}, error


def served_attributes(
    tool: str, message: ToolMessage, *, capture: bool | None = None, record_text: str | None = None
) -> dict[str, str | int | bool]:
    """The attributes of the span of ``message`` served by ``tool`` (see the module docstring).

    ``capture`` None reads ``SEMANTICS_LINT_OTEL_CAPTURE_CONTENT``. ``record_text``: the
    JSON text of ``message.record`` when already written, else it is written here.
    Raises the encoder's ``TypeError`` for a record that is not JSON data.
    """
    attributes: dict[str, str | int | bool] = {TOOL_NAME: tool, RESULT_KIND: _kind(message)}
    record = message.record
    if attributes[RESULT_KIND] == "semantics" and isinstance(record, dict):
        facts = record.get("facts")
        if isinstance(facts, list):
            attributes[FACT_COUNT] = len(facts)
    text = _record_text(message) if record_text is None else record_text
    data = text.encode("utf-8")
    digest = hashlib.sha256(data).hexdigest()
    limit = max_value_bytes()
    truncated = len(data) > limit
    attributes[ENVELOPE_BYTES] = len(data)
    attributes[ENVELOPE_SHA256] = digest
    attributes[ENVELOPE_TRUNCATED] = truncated
    if capture_content() if capture is None else capture:
        value = capped_value(text, len(data), digest, limit) if truncated else text
        if value is not None:
            attributes[OUTPUT_VALUE] = value
    attributes[OUTPUT_MIME_TYPE] = JSON_MIME_TYPE
    return attributes


def _record_text(message: ToolMessage) -> str:
    """The JSON text of ``message.record``, as ``json_text`` writes it, at the least cost.

    The record is the plain copy ``tool_message`` took: when the model read that same
    copy, its text is already written (``message.text``); otherwise the copy is
    written as it stands, with no second copy (``plain_text``).
    """
    record = message.record
    if isinstance(record, str):
        return json_text(record)
    if record is message.model:
        return message.text
    if isinstance(record, (dict, list)):
        return plain_text(record)
    return json_text(record)


def capped_value(text: str, size: int, digest: str, limit: int) -> str | None:
    """``text`` (a JSON text of ``size`` UTF-8 bytes over ``limit``) cut to valid JSON.

    The answer is one JSON object of at most ``limit`` bytes:
    ``{"truncated":true,"bytes":size,"sha256":digest,"prefix":"..."}``, where
    ``prefix`` is the longest beginning of ``text`` that fits, as a JSON string (cut
    between characters, so never inside a multibyte character; ``json_text`` has
    already escaped any lone surrogate). None when not even the object with an empty
    prefix fits (a limit OpenTelemetry's own setting made smaller than that).
    """
    shell = json_text({"truncated": True, "bytes": size, "sha256": digest, "prefix": ""})
    budget = limit - len(shell.encode("utf-8"))
    if budget < 0:
        return None
    # ``text`` is valid UTF-8 (the encoder escaped any lone surrogate), so its pieces
    # are written as JSON strings by json.dumps as by json_text. The escaped form of
    # the first ``budget`` characters (at least one byte each, so the answer is no
    # longer) is cut at ``budget`` bytes, back to a whole character and then to a whole
    # escape (at most 6 characters), and read back: the longest prefix that fits.
    escaped = json.dumps(text[:budget], ensure_ascii=False)[1:-1]
    head = escaped.encode("utf-8")[:budget].decode("utf-8", "ignore")
    for end in range(len(head), max(len(head) - 6, 0) - 1, -1):
        try:
            prefix = json.loads(f'"{head[:end]}"')
        except ValueError:
            continue
        break
    else:  # pragma: no cover - an escape is at most 6 characters
        prefix = ""
    return json_text({"truncated": True, "bytes": size, "sha256": digest, "prefix": prefix})


def capture_content() -> bool:
    """Whether ``output.value`` is written: ``SEMANTICS_LINT_OTEL_CAPTURE_CONTENT``, now."""
    capture = env_flag(os.environ.get(CAPTURE_CONTENT_ENV), True)
    if capture is None:
        warnings.warn(
            f"{CAPTURE_CONTENT_ENV}={os.environ[CAPTURE_CONTENT_ENV]!r} is neither true nor "
            "false; results are traced without their content (output.value)",
            RuntimeWarning,
            stacklevel=2,
        )
    return bool(capture)


def max_value_bytes() -> int:
    """The cap on ``output.value`` in UTF-8 bytes, read from the environment now.

    ``SEMANTICS_LINT_OTEL_MAX_VALUE_BYTES`` (default :data:`DEFAULT_MAX_VALUE_BYTES`,
    at least :data:`MIN_VALUE_BYTES`), or OpenTelemetry's attribute length limit when
    that is set lower. A value that is not a whole number is warned about and ignored.
    """
    cap = _whole(MAX_VALUE_BYTES_ENV)
    cap = DEFAULT_MAX_VALUE_BYTES if cap is None else max(cap, MIN_VALUE_BYTES)
    # A text of at most `limit` bytes has at most `limit` characters: the SDK, which
    # counts characters, keeps it whole.
    limits = [limit for limit in map(_whole, _SDK_LIMITS) if limit is not None]
    return min([cap, *limits])


def _whole(name: str) -> int | None:
    raw = os.environ.get(name)
    if raw is None or not raw.strip():
        return None
    try:
        value = int(raw.strip())
    except ValueError:
        value = -1
    if value < 0:
        warnings.warn(
            f"{name}={raw!r} is not a whole number of bytes; it is ignored",
            RuntimeWarning,
            stacklevel=3,
        )
        return None
    return value


CLAIMS_SPAN: Final = "semantics claims"
CLAIM_FINDING_EVENT: Final = "semantics claim finding"
CLAIM_PREFIX: Final = "semantics_lint.claims."
"""The span of an answer's check (``RunRecord.check_claims``) and its attributes: one
count per disposition (``semantics_lint.claims.checked_pass``, ``checked_fail``,
``not_applicable``, ``unreachable``) and ``semantics_lint.claims.advisory``."""


def trace_claims(check: ClaimCheck, settled: list[tuple[str, str] | None]) -> None:
    """Write the span ``semantics claims`` of one answer's check, under the current span.

    It carries the counts (:data:`CLAIM_PREFIX`), one event ``semantics claim finding``
    per finding (the answer field, entity, field, whether it is an advisory, the
    message, and the span id of the result that settled the fact), and a link to each
    settling result's span (``settled``: one ``(trace_id, span_id)`` or None per
    finding). Nothing when no span records.
    """
    tracer = current_tracer()
    if tracer is None:
        return
    api = _TRACING.api()
    links = []
    for found in dict.fromkeys(s for s in settled if s is not None):
        context = api.SpanContext(
            int(found[0], 16),
            int(found[1], 16),
            is_remote=False,
            trace_flags=api.TraceFlags(api.TraceFlags.SAMPLED),
        )
        links.append(api.Link(context))
    span = tracer.start_span(CLAIMS_SPAN, links=links)
    try:
        if not span.is_recording():
            return
        span.set_attributes({CLAIM_PREFIX + key.replace("-", "_"): n for key, n in check.counts().items()})
        for finding, where in zip(check.findings, settled, strict=True):
            # Attribute values are sent as UTF-8: a lone surrogate in a contract's or
            # an answer's text is written as its escape (the one surrogate policy).
            attributes: dict[str, str | bool] = {
                CLAIM_PREFIX + "answer_field": wire_text(finding.answer_field),
                CLAIM_PREFIX + "entity": wire_text(finding.entity),
                CLAIM_PREFIX + "field": wire_text(finding.field),
                CLAIM_PREFIX + "advisory": finding.advisory,
                CLAIM_PREFIX + "message": wire_text(finding.message),
            }
            if where is not None:
                attributes[CLAIM_PREFIX + "settled_span_id"] = where[1]
            span.add_event(CLAIM_FINDING_EVENT, attributes)
    finally:
        span.end()
