"""The suite's own ``xdist_group`` marks reach pytest-xdist's scheduler (tests/conftest.py).

``--dist loadgroup`` sends every test of a group to one worker, which reads the group
from a ``@name`` suffix of the node id. A test of a group checks its own node id: it
carries the suffix in a worker of a ``--dist loadgroup`` run and nowhere else.
"""

from __future__ import annotations

import pytest


@pytest.mark.xdist_group("suite-groups")
def test_a_grouped_test_is_scheduled_with_its_group(request: pytest.FixtureRequest) -> None:
    grouped = bool(getattr(request.config.option, "loadgroup", False))
    assert request.node.nodeid.endswith("@suite-groups") == grouped, request.node.nodeid


def test_a_test_of_no_group_keeps_its_node_id(request: pytest.FixtureRequest) -> None:
    assert "@" not in request.node.nodeid
