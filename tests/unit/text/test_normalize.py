"""Normalisation rules and the index map back to the original text."""

from __future__ import annotations

import pytest

from kdsdesk.text.normalize import contains, norm, normalize, tex_to_plain


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("f_{ck}", "fck"),
        ("f_ck", "fck"),
        ("F_{ck}", "fck"),
        ("250 mm", "250mm"),
        ("２５０ｍｍ", "250mm"),
        ("1,000 MPa", "1000 MPa"),
        ("22 × 50", "22 x 50"),
        ("a <= b", "a ≤ b"),
        ("a ≦ b", "a ≤ b"),
        ("2.1〜4.5", "2.1~4.5"),
        ("2.1∼4.5", "2.1~4.5"),
        ("−3", "-3"),
        ("〔표 4.1-1〕", "(표 4.1-1)"),
        ("kN/m²", "kN/m2"),
        ("b_{w}·d", "bw⋅d"),
        ("F′_{nt}", "F'nt"),
        ("ϕ", "φ"),
    ],
)
def test_equivalent_forms_normalise_equal(a: str, b: str) -> None:
    assert norm(a) == norm(b)


@pytest.mark.parametrize(("a", "b"), [("1,2", "12"), ("150", "1500"), ("1,0000", "10000"), ("≤", "<")])
def test_different_forms_stay_different(a: str, b: str) -> None:
    assert norm(a) != norm(b)


def test_index_map_points_back_to_original() -> None:
    text = "값은  f_{ck} ≤ 1,000 MPa 이하"
    n = normalize(text)
    assert len(n.text) == len(n.index)
    pos = n.text.find("1000mpa")
    a, b = n.to_source(pos, pos + len("1000mpa"))
    assert text[a:b] == "1,000 MPa"
    pos = n.text.find("fck")
    a, b = n.to_source(pos, pos + 3)
    assert text[a:b] == "f_{ck"


def test_pairs_map_to_the_first_character() -> None:
    n = normalize("x <= 3")
    assert n.text == "x≤3"
    assert n.to_source(1, 2) == (2, 4)


def test_tex_to_plain() -> None:
    assert tex_to_plain("{{\\frac{d}{2}}} 이하") == "d/2 이하"
    assert tex_to_plain("{{\\sqrt{f_{ck}}}}의 값") == "√f_{ck}의 값"
    assert tex_to_plain("\\frac{790R}{T + 18}") == "790R/(T + 18)"
    assert norm(tex_to_plain("{{0.0025b_{w}s}} 이상")) == norm("0.0025bws 이상")


def test_contains() -> None:
    assert contains("유효깊이 d가 150 mm 이상이고", "150mm 이상")
    assert not contains("유효깊이 d가 150 mm 이상이고", "")
    assert not contains("1500 mm", "150 mm")
