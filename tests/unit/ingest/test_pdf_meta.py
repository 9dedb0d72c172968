"""Document code and edition year of real KCSC PDFs, whose cover page is drawn as outlines."""

from __future__ import annotations

from pathlib import Path

import pytest

from kdsdesk.ingest.pdf import parse_pdf


@pytest.mark.slow
def test_year_from_the_colophon_when_the_cover_has_no_text(corpus: Path) -> None:
    parsed = parse_pdf(corpus / "real" / "kds" / "KDS143105.pdf")
    assert parsed.doc.doc_code == "KDS 14 31 05"
    assert parsed.doc.year == "2017"  # only the last page says "KDS 14 31 05 : 2017"


def test_sample_meta_still_from_the_first_lines(samples: Path) -> None:
    parsed = parse_pdf(samples / "dev-kds-14-20-22.pdf")
    assert (parsed.doc.doc_code, parsed.doc.year) == ("KDS 14 20 22", "2022")
    assert parsed.doc.title
