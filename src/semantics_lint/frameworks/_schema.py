"""A ``define_tool`` tool's declared ``inputSchema``, as the parameters a framework reads.

Every framework here builds a tool's input schema, and validates a call's arguments,
from the parameters of the function it registers. A tool that declares its
``inputSchema`` is registered as a function whose parameters are the schema's
properties: one keyword-only parameter per property, annotated so that

* the framework advertises the property's schema as declared (pydantic's
  ``WithJsonSchema``; a local ``$ref`` is written out in place, since a property's
  schema is read without the root's ``$defs``);
* the framework validates the argument against that schema (a pydantic
  ``AfterValidator`` running ``jsonschema``), so a call the schema refuses fails as
  any call with invalid arguments fails in that framework;
* a property the schema does not require has a default no argument can spell
  (:data:`UNSET`), which the call drops: ``execute`` gets the arguments the model gave.

The root's other constraints (``anyOf``, ``minProperties``, ...) are checked on the
whole arguments when the tool is called (:meth:`Declared.check`), and a call that
breaks one is refused (``refused: ...``), as the model reads a refusal.

The declared schema is checked against ``execute`` where the adapter is made: a
property ``execute`` cannot take, or a parameter of ``execute`` the schema leaves out
that has no default (other than a framework's context parameter), is refused then,
not at the first call.
"""

from __future__ import annotations

import inspect
import keyword
from collections.abc import Callable, Mapping
from typing import Annotated, Any, Final, NamedTuple

from semantics_lint.extras import MissingExtra
from semantics_lint.runtime.envelope.refusal import BAD_VALUE, Refusal

__all__ = ["UNSET", "Declared", "declared"]


class _Unset:
    """The default of a property the model did not give: dropped before ``execute`` runs."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "UNSET"


UNSET: Final = _Unset()

# Root keywords a framework's parameters already say (or that say nothing to check).
_SAID: Final = frozenset(
    {
        "type",
        "properties",
        "required",
        "additionalProperties",
        "$schema",
        "$id",
        "$defs",
        "definitions",
        "title",
        "description",
        "$comment",
        "examples",
        "default",
    }
)


class Declared(NamedTuple):
    """What a declared ``inputSchema`` gives a served tool.

    * ``parameters``: the keyword-only parameters a framework reads, in the order of
      the schema's ``properties``;
    * ``names``: the property names (the arguments handed to ``execute``);
    * ``whole``: a validator of the root's other constraints, or None.
    """

    parameters: tuple[inspect.Parameter, ...]
    names: frozenset[str]
    whole: Any

    def check(self, tool: str, arguments: Mapping[str, Any]) -> None:
        """Refuse ``arguments`` that break a constraint of the schema's root."""
        if self.whole is None:
            return
        error = _first_error(self.whole, dict(arguments))
        if error is not None:
            raise Refusal(
                f"refused: {tool}: the arguments do not match the tool's inputSchema: {error}",
                kind=BAD_VALUE,
            )


def _refuse(tool: str, why: str) -> Refusal:
    return Refusal(
        f"refused: define_tool({tool!r}): inputSchema {why}", path=("inputSchema",), kind=BAD_VALUE
    )


def _first_error(validator: Any, value: object) -> str | None:
    from jsonschema.exceptions import best_match

    error = best_match(validator.iter_errors(value))
    return None if error is None else error.message


def _pointer(root: Mapping[str, Any], ref: str) -> Any:
    node: Any = root
    for part in ref[2:].split("/") if ref != "#" else ():
        part = part.replace("~1", "/").replace("~0", "~")
        if isinstance(node, Mapping) and part in node:
            node = node[part]
        elif isinstance(node, list) and part.isdigit() and int(part) < len(node):
            node = node[int(part)]
        else:
            return None
    return node


def _inlined(tool: str, node: Any, root: Mapping[str, Any], seen: tuple[str, ...]) -> Any:
    """``node`` with each local ``$ref`` replaced by what it points to."""
    if isinstance(node, list):
        return [_inlined(tool, item, root, seen) for item in node]
    if not isinstance(node, Mapping):
        return node
    ref = node.get("$ref")
    if isinstance(ref, str) and ref.startswith("#"):
        if ref in seen:
            raise _refuse(
                tool,
                f"refers to itself through {ref!r}: a property's schema is "
                "served written out, so it cannot be recursive",
            )
        target = _pointer(root, ref)
        if target is None:
            raise _refuse(tool, f"has a $ref {ref!r} that points nowhere")
        rest = {k: v for k, v in node.items() if k != "$ref"}
        merged = _inlined(tool, target, root, (*seen, ref))
        if not rest:
            return merged
        return {"allOf": [merged, _inlined(tool, rest, root, seen)]}
    return {key: _inlined(tool, value, root, seen) for key, value in node.items()}


def _property_check(name: str, validator: Any) -> Callable[[Any], Any]:
    def check(value: Any) -> Any:
        if value is UNSET:
            return value
        error = _first_error(validator, value)
        if error is not None:
            raise ValueError(f"{name}: {error}")
        return value

    return check


def _root(tool: str, schema: object, extra: str) -> tuple[Mapping[str, Any], list[str], type]:
    """The schema's properties and required names, and its validator class; refused when
    it is not a JSON schema of an object."""
    try:
        from jsonschema.exceptions import SchemaError
        from jsonschema.validators import validator_for
    except ImportError as error:  # every framework extra installs jsonschema
        raise MissingExtra(f"serving the declared inputSchema of {tool!r}", extra, error) from None
    if not isinstance(schema, Mapping):
        raise _refuse(tool, f"must be a JSON schema (a dict), not {type(schema).__name__}")
    cls = validator_for(schema)
    try:
        cls.check_schema(schema)
    except SchemaError as error:
        raise _refuse(tool, f"is not a valid JSON schema: {error.message}") from None
    if schema.get("type", "object") != "object":
        raise _refuse(tool, f"must describe an object of arguments, not {schema['type']!r}")
    properties = schema.get("properties", {})
    required = [name for name in schema.get("required", ()) if isinstance(name, str)]
    missing = [name for name in required if name not in properties]
    if missing:
        raise _refuse(tool, f"requires {missing[0]!r}, which is not one of its properties")
    return properties, required, cls


def _parameter(
    tool: str, name: str, sub: Any, required: bool, cls: type, root: Mapping[str, Any]
) -> inspect.Parameter:
    if not name.isidentifier() or keyword.iskeyword(name) or name.startswith("_"):
        raise _refuse(
            tool,
            f"has a property {name!r} that cannot be a Python parameter name "
            "(each property is passed to execute as a keyword argument)",
        )
    from pydantic import AfterValidator, Field, WithJsonSchema

    written = _inlined(tool, sub, root, ()) if not isinstance(sub, bool) else {}
    if isinstance(sub, bool) and not sub:
        written = {"not": {}}
    # A property declared as text is a str: no framework then reads a JSON text into it.
    kind: Any = str if isinstance(written, Mapping) and written.get("type") == "string" else Any
    metadata: list[Any] = [
        WithJsonSchema(written),
        AfterValidator(_property_check(name, cls(written))),
    ]
    if not required:
        metadata.append(Field(default_factory=_unset))
    return inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, annotation=Annotated[(kind, *metadata)])


def _unset() -> _Unset:
    return UNSET


def _agrees(
    tool: str,
    execute: inspect.Signature | None,
    names: list[str],
    required: list[str],
    context: Callable[[inspect.Parameter], bool],
) -> None:
    """Refuse a schema ``execute`` cannot be called with."""
    if execute is None:
        return
    params = execute.parameters
    takes_any = any(p.kind is p.VAR_KEYWORD for p in params.values())
    for name in names:
        param = params.get(name)
        if (
            param is None
            and not takes_any
            or param is not None
            and param.kind in (param.POSITIONAL_ONLY, param.VAR_POSITIONAL, param.VAR_KEYWORD)
        ):
            raise _refuse(tool, f"declares {name!r}, which execute does not take as a keyword")
    for param in params.values():
        needed = param.default is param.empty and param.kind not in (
            param.VAR_POSITIONAL,
            param.VAR_KEYWORD,
        )
        if needed and not context(param) and param.name not in required:
            raise _refuse(
                tool,
                f"does not require {param.name!r}, which execute needs (give it "
                "a default, or list it in the schema's required)",
            )


def declared(
    tool: str,
    schema: object,
    execute: inspect.Signature | None,
    context: Callable[[inspect.Parameter], bool],
    extra: str,
) -> Declared:
    """The parameters a framework reads for ``schema``, ``tool``'s declared inputSchema.

    ``execute`` is the signature of the tool's ``execute`` (None when it cannot be
    read); ``context`` tells a framework's context parameter, which the schema does
    not declare. Raises a ``Refusal`` for a schema that is not a JSON schema of an
    object, or that ``execute`` cannot be called with, and ``MissingExtra`` (naming
    ``extra``) when ``jsonschema`` cannot be imported.
    """
    properties, required, cls = _root(tool, schema, extra)
    assert isinstance(schema, Mapping)
    names = list(properties)
    _agrees(tool, execute, names, required, context)
    parameters = tuple(
        _parameter(tool, name, properties[name], name in required, cls, schema) for name in names
    )
    whole = cls(schema) if set(schema) - _SAID else None
    return Declared(parameters, frozenset(names), whole)
