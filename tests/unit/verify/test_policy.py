"""The status policy: what may be shown."""

from __future__ import annotations

from kdsdesk.verify.policy import NO_VALUE, decide, follows_policy


def test_outcomes() -> None:
    ok = {"quote_provenance": True, "value_in_quote": True}
    assert decide(True, ok, from_table=False).status == "confirmed"
    assert decide(True, ok, from_table=True).status == "warning"
    assert decide(True, {**ok, "value_in_quote": False}, from_table=False).status == "unverified"
    assert decide(True, {**ok, "value_in_quote": False}, from_table=True).status == "unverified"
    v = decide(False, ok, from_table=False)
    assert v.status == "restricted"
    assert NO_VALUE in v.reason


def test_follows_policy() -> None:
    assert follows_policy(True, {"a": True}, "confirmed")
    assert not follows_policy(True, {"a": False}, "confirmed")
    assert follows_policy(True, {"a": False}, "unverified")
    assert follows_policy(False, {}, "restricted")
    assert not follows_policy(True, {"a": True}, "restricted")
