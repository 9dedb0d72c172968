"""The development/validation split: by standard, deterministic, independent of how the code is written."""

from __future__ import annotations

import pytest

from kdsdesk.evaluation.split import item_split, normalise_code, select, split_of

CODES = [f"KDS {a} {b:02d} {c:02d}" for a in (11, 14, 21, 24, 41) for b in (10, 20, 30, 50) for c in (0, 5, 10, 22)]


def test_every_standard_has_one_half_whatever_its_spelling() -> None:
    for code in CODES:
        half = split_of(code)
        assert half in ("dev", "val")
        assert split_of(code.lower()) == half
        assert split_of(code.replace(" ", "")) == half
        assert split_of(f"{code} : 2022") == half
        assert split_of(f"  {code}  ") == half


def test_both_halves_are_used() -> None:
    halves = [split_of(c) for c in CODES]
    assert 0.3 < halves.count("dev") / len(halves) < 0.7


def test_normalised_code_keeps_letters_and_digits_before_the_year() -> None:
    assert normalise_code("KDS 14 20 22 : 2022") == "KDS142022"
    assert normalise_code("kcs-14.20.22") == "KCS142022"
    assert normalise_code("") == ""


def test_items_follow_their_standard_and_not_in_library_items_their_id() -> None:
    for code in CODES[:10]:
        a = {"id": "a-1", "doc": code}
        b = {"id": "zz-99", "doc": code.replace(" ", "")}
        assert item_split(a) == item_split(b) == split_of(code)
    no_doc = [{"id": f"nil-{n:03d}", "doc": ""} for n in range(40)]
    halves = [item_split(i) for i in no_doc]
    assert set(halves) == {"dev", "val"}
    assert halves == [item_split(dict(i)) for i in no_doc]  # by id: the same every time


def test_select_partitions_the_items() -> None:
    items = [{"id": f"q{n}", "doc": CODES[n % len(CODES)]} for n in range(60)]
    dev, val = select(items, "dev"), select(items, "val")
    assert len(dev) + len(val) == len(items)
    assert not {i["id"] for i in dev} & {i["id"] for i in val}
    assert not {i["doc"] for i in dev} & {i["doc"] for i in val}  # a standard never straddles the halves
    assert select(items, "all") == items
    with pytest.raises(ValueError, match="split"):
        select(items, "test")
