"""Symbol tokens: keyboard and printed forms of a symbol give the same term; Greek is spelled out too."""

from __future__ import annotations

import pytest

from kdsdesk.text.symbols import find_symbols, is_symbol_query, normalize, symbol_tokens


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("f_ck", ["fck"]),
        ("f_{ck}", ["fck"]),
        ("fck", ["fck"]),
        ("A_{v,min}", ["avmin"]),
        ("A_v,min", ["avmin"]),
        ("φs", ["φs", "phis"]),
        ("ρ_{w}", ["ρw", "rhow"]),
        ("δ", ["δ", "delta"]),
        ("F13T", ["f13t"]),
        ("MPa", ["mpa"]),
    ],
)
def test_symbol_forms(raw: str, expected: list[str]) -> None:
    assert symbol_tokens(raw) == expected


def test_greek_before_capital_is_a_product() -> None:
    toks = symbol_tokens("φV_n")
    assert toks[:2] == ["φvn", "phivn"]
    assert {"φ", "phi", "vn"} <= set(toks)


def test_english_words_are_not_symbols() -> None:
    spans = find_symbols(normalize("Strut and tie 모델에서 f_ck 값"))
    texts = [s.tokens for s in spans]
    assert ("fck",) in texts
    assert all("strut" not in t for t in texts)


def test_spans_cover_symbols_and_numbers_in_text() -> None:
    text = normalize("A_{v,min}의 값은 표 4.2-1과 1,000 mm²에 따른다")
    spans = find_symbols(text)
    got = {text[s.start : s.end]: s.tokens for s in spans}
    assert got["A_{v,min}"] == ("avmin",)
    assert got["4.2-1"] == ("4.2-1",)
    assert got["1,000"] == ("1000",)
    assert got["mm2"] == ("mm2",)  # NFKC: ² → 2


def test_subscript_group_ends_the_symbol() -> None:
    spans = find_symbols("A_{s}/(b_{w}d)")
    assert [s.tokens[0] for s in spans] == ["as", "bw", "d"]


def test_symbol_query_has_no_hangul() -> None:
    assert is_symbol_query("A_v,min")
    assert is_symbol_query("13 < t ≤ 19")
    assert not is_symbol_query("fck 값")
    assert not is_symbol_query("  ")
