"""Rules of a PDF page (``pdf_table_geometry``): hairline strokes are vertical rules, filled shapes (outline glyphs,
a watermark) and short or wide strokes are not."""

from __future__ import annotations

from kdsdesk.ingest.pdf_table_geometry import vertical_rules


def test_vertical_rules_are_hairline_strokes() -> None:
    log = [
        ("stroke-path", (140.0, 170.0, 140.0, 250.0)),  # a rule
        ("stroke-path", (220.2, 170.0, 220.5, 250.0)),  # a rule with its line width
        ("fill-path", (300.0, 170.0, 300.8, 250.0)),  # a filled stroke of a glyph or the watermark
        ("stroke-path", (330.0, 200.0, 330.0, 205.0)),  # too short: a tick of a drawing
        ("stroke-path", (400.0, 170.0, 404.0, 250.0)),  # too wide
    ]
    assert [(v.x, v.y0, v.y1) for v in vertical_rules(log)] == [(140.0, 170.0, 250.0), (220.35, 170.0, 250.0)]
