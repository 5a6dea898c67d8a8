import functools

from semantics_lint.runtime import described_result

snapshot_result = functools.partial(described_result, grain={"interval": "daily", "aggregation": "max", "isCounter": False, "granularity": "day"})  # expect: SEM101
