"""Random cases for the unsupported-claim check, held against the reference's verdicts.

``cases(count, seed)`` gives JSON-ready cases: the envelopes a run served (each with
its tool, call id and iteration), a contract (a list of ``[answer_field, {"entity",
"field"}]`` pairs, in order) and an answer that agrees, contradicts, writes a number as
text, says null or "unknown", omits fields, nests paths, or carries Claim-shaped values.
A small vocabulary of entities and fields makes facts collide, so later rows supersede
earlier ones. Integers stay within ±2**53 (past it the check is exact, the reference
rounds: the one documented deviation).

``tests/data/claims_reference.json`` holds ``cases(1600, seed=46)`` with the reference's
verdict on each (rows, dispositions, findings with their messages and witnesses), made
by running the reference's own ``claimRowsOf`` and ``unsupportedClaimsOf`` over them.
"""

from __future__ import annotations

import random
from typing import Any

ENTITIES = ("vm1", "vm2", "fleet", "fc1/3")
FIELDS = ("jobs_local", "status", "nav", "10", "x y")
ANSWER_FIELDS = (
    "a",
    "jobs",
    "report.a",
    "report.jobs",
    "items.0.a",
    "items.1.b",
    "0",
    "r.s.t",
    "items.length",
)
TIMES = ("2026-01-01T00:00:00Z", "2026-02-03T04:05:06+02:00")


def _scalar(rng: random.Random) -> Any:
    return rng.choice(
        [
            rng.randint(-5, 400),
            rng.randint(0, 2**53),
            rng.choice([0.5, 1e21, 1e-7, -2.25, 30.0, 1e16]),
            rng.choice(["down", "up", "30", "unknown", "", "é", "null", "true"]),
            rng.choice([True, False]),
            None,
        ]
    )


def _value(rng: random.Random, depth: int = 0) -> Any:
    roll = rng.random()
    if depth < 2 and roll < 0.12:
        return [_value(rng, depth + 1) for _ in range(rng.randint(0, 3))]
    if depth < 2 and roll < 0.22:
        keys = rng.sample(["b", "a", "2", "10", "z", "é"], rng.randint(0, 3))
        return {key: _value(rng, depth + 1) for key in keys}
    if depth < 1 and roll < 0.32:
        return _claim(rng, _value(rng, depth + 1))
    return _scalar(rng)


def _claim(rng: random.Random, value: Any) -> Any:
    return rng.choice(
        [
            {"kind": "known", "value": value, "evidence": "the meter"},
            {"kind": "unknown", "reason": "meter offline"},
            {"kind": "not-applicable", "evidence": "no such port"},
            {"kind": "known", "evidence": "a known Claim with no value"},
            {"kind": 3, "value": value},
        ]
    )


def _envelope(rng: random.Random) -> dict[str, Any]:
    envelope: dict[str, Any] = {"af_semantics": True}
    if rng.random() < 0.8:
        envelope["facts"] = [
            {
                "entity": rng.choice(ENTITIES),
                **{field: _value(rng) for field in rng.sample(FIELDS, rng.randint(1, 3))},
            }
            for _ in range(rng.randint(1, 3))
        ]
    if rng.random() < 0.4 or "facts" not in envelope:
        envelope["series"] = [
            {
                "t": rng.choice([*TIMES, 1767225600000, 1.5]),
                "entity": rng.choice(ENTITIES),
                "metric": rng.choice(FIELDS),
                "value": _value(rng),
            }
            for _ in range(rng.randint(1, 3))
        ]
        envelope["grain"] = {"interval": "1d", "aggregation": "sum", "is_counter": False}
    if rng.random() < 0.9:
        envelope["provenance"] = {"measured_at": rng.choice(TIMES), "source": "backup-db"}
    return envelope


def _settled(served: list[dict[str, Any]], entity: str, field: str) -> list[Any]:
    found = []
    for one in served:
        envelope = one["envelope"]
        for fact in envelope.get("facts", []):
            if fact["entity"] == entity and field in fact:
                found.append(fact[field])
        for point in envelope.get("series", []):
            if point["entity"] == entity and point["metric"] == field:
                found.append(point["value"])
    return found


def _number_texts(value: Any) -> list[str]:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return []
    texts = [
        str(value),
        f" {value}\n",
        f"\u00a0{value}\u2028",
        f"{value}e0",
        f"+{value}",
        f"{value}n",
        "1_000",
    ]
    if isinstance(value, int) and value >= 0:
        texts += [
            hex(value),
            hex(value).upper(),
            f"0o{value:o}",
            f"0b{value:b}",
            f"{value}.0",
            f"-{hex(value)}",
        ]
    return texts


def _claimed(rng: random.Random, settled: list[Any]) -> Any:
    latest = settled[-1] if settled else None
    if isinstance(latest, dict) and latest.get("kind") == "known" and "value" in latest:
        latest = latest["value"]
    choices: list[Any] = [_value(rng), None, "unknown", _claim(rng, _scalar(rng))]
    if settled:
        choices += [latest, latest, settled[0], settled[-1], *_number_texts(latest)]
    return rng.choice(choices)


def _put(answer: dict[str, Any], path: str, value: Any) -> None:
    cursor: Any = answer
    keys = path.split(".")
    for key, after in zip(keys, keys[1:], strict=False):
        if isinstance(cursor, list):
            index = int(key)
            while len(cursor) <= index:
                cursor.append({})
            if not isinstance(cursor[index], (dict, list)):
                return
            cursor = cursor[index]
            continue
        if not isinstance(cursor, dict):
            return
        if key not in cursor:
            cursor[key] = [] if after.isdigit() else {}
        cursor = cursor[key]
    last = keys[-1]
    if isinstance(cursor, dict):
        cursor[last] = value
    elif isinstance(cursor, list) and last.isdigit():
        while len(cursor) <= int(last):
            cursor.append(None)
        cursor[int(last)] = value


def case(rng: random.Random) -> dict[str, Any]:
    """One case: ``served``, ``contract`` (pairs) and ``answer``."""
    served: list[dict[str, Any]] = [
        {
            "envelope": _envelope(rng),
            "tool": rng.choice(["vm_backup_status", "whats_here"]),
            "call_id": rng.choice(["call_abc", "c1", "toolu_01", "7"]),
            "iteration": rng.randint(0, 4),
        }
        for _ in range(rng.randint(1, 3))
    ]
    fields = rng.sample(ANSWER_FIELDS, rng.randint(1, 4))
    readings = [
        (row["entity"], key)
        for one in served
        for row in one["envelope"].get("facts", [])
        for key in row
        if key != "entity"
    ] + [(p["entity"], p["metric"]) for one in served for p in one["envelope"].get("series", [])]
    contract: list[tuple[str, dict[str, str]]] = []
    for answer_field in fields:
        entity, field = (
            rng.choice(readings) if rng.random() < 0.75 else (rng.choice(ENTITIES), rng.choice(FIELDS))
        )
        contract.append((answer_field, {"entity": entity, "field": field}))
    answer: Any = {}
    for answer_field, fact in contract:
        if rng.random() < 0.12:
            continue  # omitted
        _put(answer, answer_field, _claimed(rng, _settled(served, fact["entity"], fact["field"])))
    if rng.random() < 0.04:
        answer = rng.choice([None, "text", 5, [answer]])
    return {"served": served, "contract": contract, "answer": answer}


def cases(count: int, seed: int) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    return [case(rng) for _ in range(count)]


if __name__ == "__main__":  # the cases as JSON, for the reference to judge
    import json
    import sys

    json.dump(cases(int(sys.argv[1]), int(sys.argv[2])), sys.stdout, ensure_ascii=False)
