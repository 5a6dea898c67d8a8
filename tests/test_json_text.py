"""The one encoder writes what JavaScript's JSON.stringify writes, and refuses what JSON
cannot carry, naming where.

The table's texts are JSON.stringify's own (checked against node when it is on the
machine: ``test_node_writes_what_the_table_says``); the random differential test runs
thousands of values through both when node is there.
"""

from __future__ import annotations

import datetime
import decimal
import enum
import ipaddress
import json
import math
import random
import shutil
import subprocess
import uuid

import pytest
from hypothesis import given
from hypothesis import strategies as st

from semantics_lint.runtime.envelope.json_text import (
    MAX_DEPTH,
    NotJSON,
    json_copy,
    json_text,
    object_text,
    plain_text,
    remade,
    wire_text,
)

NODE = shutil.which("node")


class Colour(enum.Enum):
    RED = 1


class Level(str, enum.Enum):
    HIGH = "high"


class Count(enum.IntEnum):
    TWO = 2


# (Python value, the JavaScript value as JSON.parse reads it, what JSON.stringify writes)
TABLE = [
    ({"a": 1, "b": [1, 2]}, '{"a":1,"b":[1,2]}', '{"a":1,"b":[1,2]}'),
    ([100.0, -0.0, 0.0, 2.5], "[100.0,-0.0,0.0,2.5]", "[100,0,0,2.5]"),
    (
        [1e-7, 1.5e-7, 0.000001, 0.00001, 0.0001],
        "[1e-7,1.5e-7,0.000001,0.00001,0.0001]",
        "[1e-7,1.5e-7,0.000001,0.00001,0.0001]",
    ),
    (
        [1e16, 1e20, 1e21, 1.2345678901234567e20, 2.0**53, 1.5e300],
        "[1e16,1e20,1e21,1.2345678901234567e20,9007199254740992,1.5e300]",
        "[10000000000000000,100000000000000000000,1e+21,123456789012345670000,9007199254740992,1.5e+300]",
    ),
    (
        {"x": "\ud800", "y": "a\udfffb"},
        '{"x":"\\ud800","y":"a\\udfffb"}',
        '{"x":"\\ud800","y":"a\\udfffb"}',
    ),
    (
        {"e": "\ud83d\ude00", "é": "ü\u2028"},
        '{"e":"\\ud83d\\ude00","é":"ü\\u2028"}',
        '{"e":"😀","é":"ü\u2028"}',
    ),
    (
        {"b": 1, "10": 2, "2": 3, "01": 4, "-1": 5, "4294967295": 6, "4294967294": 7},
        '{"b":1,"10":2,"2":3,"01":4,"-1":5,"4294967295":6,"4294967294":7}',
        '{"2":3,"10":2,"4294967294":7,"b":1,"01":4,"-1":5,"4294967295":6}',
    ),
    (
        'tab\tquote"back\\slash\x00\x1f\x7f',
        '"tab\\tquote\\"back\\\\slash\\u0000\\u001f\\u007f"',
        '"tab\\tquote\\"back\\\\slash\\u0000\\u001f\x7f"',
    ),
    ([True, False, None, ""], '[true,false,null,""]', '[true,false,null,""]'),
    ({}, "{}", "{}"),
    ([], "[]", "[]"),
]


@pytest.mark.parametrize(("value", "_js", "expected"), TABLE)
def test_the_text_is_json_stringifys(value: object, _js: str, expected: str) -> None:
    assert json_text(value) == expected


@pytest.mark.parametrize(("value", "_js", "expected"), TABLE)
def test_a_copy_is_written_as_its_value_is(value: object, _js: str, expected: str) -> None:
    assert plain_text(json_copy(value)) == expected


@pytest.mark.parametrize(
    "value",
    [
        {"version": "v1.0", "ip": "10.0.0.1", "word": "one-off", "odd": "NaN Infinity e+"},
        {"version": "v1.0", "n": 2.5, "tiny": 1e-7, "big": 1e21, "whole": 100.0},
        {"n": 2.5, "m": [0.1, 3.25, -7.125]},
        {"text": "no number here", "n": 12},
        [float("nan"), float("inf"), -0.0],
    ],
)
def test_a_copy_is_written_right_whatever_its_strings_hold(value: object) -> None:
    # plain_text skips the number pass only when the written text holds none of the
    # marks of a float JavaScript writes otherwise; strings that hold them only cost
    # the pass, and floats that need it always get it.
    assert plain_text(json_copy(value)) == json_text(value)


def test_an_object_put_together_from_its_members_texts_is_written_as_whole() -> None:
    value = {"b": [1, 2.5], "cut\ud800": {"x": None}, "é": "ü"}
    members = [(key, json_text(item)) for key, item in value.items()]
    assert object_text(members) == json_text(value)
    assert object_text([]) == "{}"


@pytest.mark.skipif(NODE is None, reason="node is not on this machine")
def test_node_writes_what_the_table_says() -> None:
    script = (
        "for (const line of require('fs').readFileSync(0,'utf8').split('\\n').filter(Boolean))"
        " console.log(JSON.stringify(JSON.stringify(JSON.parse(JSON.parse(line)))))"
    )
    given_lines = "\n".join(json.dumps(js) for _, js, _ in TABLE) + "\n"
    out = subprocess.run([NODE, "-e", script], input=given_lines.encode(), capture_output=True, check=True)
    written = [json.loads(line) for line in out.stdout.decode().split("\n")[:-1]]
    assert written == [expected for _, _, expected in TABLE]


def test_nan_and_infinity_are_null_as_the_reference_writes_them() -> None:
    assert json_text([math.nan, math.inf, -math.inf]) == "[null,null,null]"
    assert json_text({"v": math.nan}) == '{"v":null}'


def test_an_int_past_2_53_is_exact_a_documented_deviation() -> None:
    assert json_text(2**60 + 1) == str(2**60 + 1)
    assert json_text(-(2**1023)) == str(-(2**1023))


def test_dates_are_their_iso_text_and_enum_mixins_their_value() -> None:
    moment = datetime.datetime(2024, 5, 1, 12, 30, tzinfo=datetime.timezone.utc)
    assert json_text({"t": moment, "d": datetime.date(2024, 5, 1)}) == (
        '{"t":"2024-05-01T12:30:00+00:00","d":"2024-05-01"}'
    )
    assert json_text([Level.HIGH, Count.TWO, (1, 2)]) == '["high",2,[1,2]]'


def test_keys_that_are_not_text_are_written_as_javascript_writes_them() -> None:
    assert json_text({1: "a", 2.5: "b", 3.0: "c", False: "d", None: "e", math.nan: "f"}) == (
        '{"1":"a","3":"c","2.5":"b","false":"d","null":"e","NaN":"f"}'
    )


@pytest.mark.parametrize(
    ("value", "path", "words"),
    [
        ({"price": decimal.Decimal("1.5")}, "facts[0].price", "is a Decimal"),
        ({"tags": {"a"}}, "facts[0].tags", "is a set"),
        ({"raw": b"x"}, "facts[0].raw", "is a bytes"),
        ({"id": uuid.UUID(int=1)}, "facts[0].id", "is a UUID"),
        ({"at": ipaddress.ip_address("10.0.0.1")}, "facts[0].at", "is an IPv4Address"),
        ({"colour": Colour.RED}, "facts[0].colour", "is a Colour"),
        ({"n": 2**1024}, "facts[0].n", "an int of 1025 bits"),
        ({(1, 2): "pair"}, "facts[0]", "a key that is a tuple"),
        ({1: "a", "1": "b"}, "facts[0]", "two keys that are both '1'"),
        ({"true": "a", True: "b"}, "facts[0]", "two keys that are both 'true'"),
        ({None: "a", "null": "b"}, "facts[0]", "two keys that are both 'null'"),
        ({"odd key": [object()]}, "facts[0]['odd key'][0]", "is an object"),
    ],
)
def test_what_json_cannot_carry_is_refused_naming_the_path_and_type(
    value: object, path: str, words: str
) -> None:
    with pytest.raises(NotJSON) as refused:
        json_text(value, "facts[0]")
    assert refused.value.path == path
    assert str(refused.value).startswith(path) and words in str(refused.value)
    with pytest.raises(NotJSON):
        json_copy(value, "facts[0]")


def test_a_value_that_contains_itself_is_refused() -> None:
    loop: list[object] = [1]
    loop.append({"again": loop})
    with pytest.raises(NotJSON, match=r"^\[1\]\.again contains itself"):
        json_text(loop)


def test_the_same_list_twice_is_not_a_cycle() -> None:
    shared = [1]
    assert json_text({"a": shared, "b": shared}) == '{"a":[1],"b":[1]}'


def test_nesting_is_refused_past_the_documented_depth() -> None:
    def nested(depth: int) -> object:
        value: object = 0
        for _ in range(depth):
            value = [value]
        return value

    assert json_text(nested(MAX_DEPTH)) == "[" * MAX_DEPTH + "0" + "]" * MAX_DEPTH
    with pytest.raises(NotJSON, match="nested deeper than 100"):
        json_text(nested(MAX_DEPTH + 1))
    with pytest.raises(NotJSON):
        json_text(nested(10_000))


def test_the_copy_is_plain_data_apart_from_the_value() -> None:
    inner = {"k": [1, (2, 3)]}
    copy = json_copy({"a": inner, 5: Level.HIGH})
    assert copy == {"5": "high", "a": {"k": [1, [2, 3]]}}
    assert type(copy["5"]) is str and copy["a"] is not inner and copy["a"]["k"] is not inner["k"]
    inner["k"].append(9)
    assert copy["a"]["k"] == [1, [2, 3]]


def test_a_str_result_is_valid_utf8_as_served() -> None:
    assert wire_text("ok \ud83d\ude00") == "ok 😀"
    assert wire_text("cut \ud800 here") == "cut \\ud800 here"
    assert wire_text("plain") == "plain"


# Values JSON can carry, with the odd floats, keys and strings the differential test wants.
_floats = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([0.0, -0.0, 1e-7, 1e-6, 1e-5, 1e16, 1e21, 2.0**53, 123.0, 0.1]),
)
_text = st.text(alphabet=st.characters(codec=None, exclude_categories=()), max_size=8)
_keys = st.one_of(_text, st.integers(0, 20).map(str), st.sampled_from(["0", "01", "4294967295", "-1"]))
_scalars = st.one_of(st.none(), st.booleans(), st.integers(-(2**53), 2**53), _floats, _text)
_values = st.recursive(
    _scalars,
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(_keys, inner, max_size=4)),
    max_leaves=20,
)


def _expected(value: object) -> object:
    if isinstance(value, float):
        return None if not math.isfinite(value) else value
    if isinstance(value, list):
        return [_expected(v) for v in value]
    if isinstance(value, dict):
        return {k: _expected(v) for k, v in value.items()}
    return value


@given(_values)
def test_the_text_reads_back_as_the_value(value: object) -> None:
    text = json_text(value)
    assert plain_text(json_copy(value)) == text
    text.encode("utf-8")  # always valid UTF-8
    back = json.loads(text)
    if not _has_lone_surrogate(value):
        assert _equal(back, _expected(value))
    assert json_text(back) == text  # a fixed point: writing what was read changes nothing


def _equal(back: object, expected: object) -> bool:
    # A double past 2**53 is written with JavaScript's shortest digits, which read back
    # as an int: the same number once held as a double.
    if isinstance(expected, float):
        return type(back) in (int, float) and float(back) == expected  # type: ignore[arg-type]
    if isinstance(expected, list):
        return isinstance(back, list) and len(back) == len(expected) and all(map(_equal, back, expected))
    if isinstance(expected, dict):
        return (
            isinstance(back, dict)
            and back.keys() == expected.keys()
            and all(_equal(back[k], v) for k, v in expected.items())
        )
    return type(back) is type(expected) and back == expected


def _has_lone_surrogate(value: object) -> bool:
    if isinstance(value, str):
        return any("\ud800" <= c <= "\udfff" for c in value)
    if isinstance(value, list):
        return any(_has_lone_surrogate(v) for v in value)
    if isinstance(value, dict):
        return any(_has_lone_surrogate(k) or _has_lone_surrogate(v) for k, v in value.items())
    return False


def _random_value(rng: random.Random, depth: int = 0) -> object:
    roll = rng.random()
    if depth > 3 or roll < 0.5:
        kind = rng.randrange(6)
        if kind == 0:
            exponent = rng.randint(-330, 310)
            return rng.choice([-1, 1]) * rng.random() * 10.0**exponent if exponent < 308 else rng.random()
        if kind == 1:
            return float(rng.randint(-(2**60), 2**60)) * rng.choice([1, 1, 1e-3, 1e5])
        if kind == 2:
            return rng.randint(-(2**53), 2**53)
        if kind == 3:
            return "".join(
                chr(
                    rng.choice(
                        [
                            rng.randint(0, 0x7F),
                            rng.randint(0xD7F0, 0xE010),
                            rng.randint(0, 0x10FFFF),
                        ]
                    )
                )
                for _ in range(rng.randint(0, 6))
            )
        return rng.choice([None, True, False, math.nan, math.inf, -0.0])
    if roll < 0.75:
        return [_random_value(rng, depth + 1) for _ in range(rng.randint(0, 4))]
    keys = [
        rng.choice([str(rng.randint(0, 30)), f"k{rng.randint(0, 9)}", "01", "4294967294", "4294967295"])
        for _ in range(rng.randint(0, 5))
    ]
    return {k: _random_value(rng, depth + 1) for k in keys}


def _as_javascript_literal(value: object) -> object:
    # NaN and Infinity have no JSON spelling: hand them to node as tagged strings.
    if isinstance(value, float) and not math.isfinite(value):
        return {"$number": repr(value)}
    if isinstance(value, list):
        return [_as_javascript_literal(v) for v in value]
    if isinstance(value, dict):
        return {k: _as_javascript_literal(v) for k, v in value.items()}
    return value


_REVIVE = """
const revive = (k, v) => (v && typeof v === 'object' && !Array.isArray(v) && '$number' in v)
  ? ({nan: NaN, inf: Infinity, '-inf': -Infinity})[v['$number']] : v;
const lines = require('fs').readFileSync(0, 'utf8').split('\\n').filter(Boolean);
for (const line of lines) console.log(JSON.stringify(JSON.stringify(JSON.parse(line, revive))));
"""


@pytest.mark.skipif(NODE is None, reason="node is not on this machine")
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_values_are_written_as_node_writes_them(seed: int) -> None:
    rng = random.Random(seed)
    values = [_random_value(rng) for _ in range(1500)]
    given_lines = "".join(json.dumps(_as_javascript_literal(v)) + "\n" for v in values)
    assert NODE is not None
    out = subprocess.run([NODE, "-e", _REVIVE], input=given_lines.encode(), capture_output=True, check=True)
    written = [json.loads(line) for line in out.stdout.decode().split("\n")[:-1]]
    assert len(written) == len(values)
    differ = [(v, js, json_text(v)) for v, js in zip(values, written, strict=True) if json_text(v) != js]
    assert not differ, f"{len(differ)} of {len(values)} differ, e.g. {differ[:3]}"


_PLAIN = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=4),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=3), inner, max_size=4),
    max_leaves=30,
)


def _containers(value: object) -> list[object]:
    found: list[object] = []
    if isinstance(value, (dict, list)):
        found.append(value)
        for item in value.values() if isinstance(value, dict) else value:
            found.extend(_containers(item))
    return found


@given(_PLAIN)
def test_a_copy_made_anew_equals_the_copy_and_shares_no_container_with_it(value: object) -> None:
    copy = json_copy(value)
    again = remade(copy)
    assert repr(again) == repr(copy)  # repr: NaN is not equal to itself
    assert not {id(c) for c in _containers(again)} & {id(c) for c in _containers(copy)}
