"""한글 equation scripts → readable linear text."""

from __future__ import annotations

import re
import zipfile
from pathlib import Path

import pytest
from lxml import etree

from kdsdesk.ingest.hwpeq import linearize


@pytest.mark.parametrize(
    ("script", "text"),
    [
        ("V _{u} LEQ phi V _{n}", "V_u ≤ φV_n"),
        ("{a} over {b}", "(a)/(b)"),
        ("{1} over {6} lambda sqrt {f_{ck}}b_{w}d", "1/6 λ√(f_ck)b_w d"),
        ("sqrt {a}", "√a"),
        ("root {3} of {x+1}", "√[3](x + 1)"),
        ("LEFT ( a+b RIGHT )", "(a + b)"),
        ("LEFT | a RIGHT |", "|a|"),
        ("ALPHA + Omega + omega", "Α + Ω + ω"),
        ("a TIMES b CDOT c", "a × b · c"),
        ("a GEQ b", "a ≥ b"),
        ("a != b", "a ≠ b"),
        ("a PM b", "a ± b"),
        ("a +- b", "a ± b"),
        ("x ^{2} + x_{i}", "x^2 + x_i"),
        ("A_{v,min}", "A_{v,min}"),
        ("a`b~c", "a b c"),
        ("rm kN it x bold y", "kNxy"),
        ("x -> 0", "x → 0"),
        ("matrix{a & b # c & d}", "[a, b; c, d]"),
        ("cases{a & x>0 # b & x<0}", "{a x > 0; b x < 0}"),
        ("pile{a # b}", "a; b"),
        ('{"123"} over {2}', "123/2"),
        ("sum _{k=1} ^{n} k", "Σ_{k=1}^n k"),
        ("int _{0} ^{1} x dx", "∫_0^1 xdx"),
        ("sin alpha + cot ^{2} theta", "sin α + cot^2 θ"),
    ],
)
def test_linearize(script: str, text: str) -> None:
    assert linearize(script) == text


@pytest.mark.parametrize("script", ["", "   ", "}", "{{{", "LEFT (", "RIGHT )", "over", "sqrt", "a _", "^^^",
                                    "{" * 500 + "x", "matrix{", "root 3 of"])
def test_odd_scripts_do_not_raise(script: str) -> None:
    assert isinstance(linearize(script), str)


_LEFTOVER = re.compile(
    r"\b(?:over|sqrt|LEFT|RIGHT|TIMES|LEQ|GEQ|TRIANGLE|image|pmatrix|cases|pi|lambda|alpha)\b|[#&`~]"
)


def test_all_scripts_of_the_latex_fixture_become_readable(corpus: Path) -> None:
    src = corpus / "real" / "hwpx" / "hwpjs__latex.hwpx"
    with zipfile.ZipFile(src) as z:
        root = etree.fromstring(z.read("Contents/section0.xml"))
    scripts = [el.text or "" for el in root.iter("{*}script")]
    assert len(scripts) == 20
    for script in scripts:
        text = linearize(script)
        assert text, script
        assert not _LEFTOVER.search(text), (script, text)
        assert text.count("(") == text.count(")"), (script, text)
