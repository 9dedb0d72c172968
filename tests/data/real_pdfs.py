"""The real KCSC PDFs of ``../shared/corpus/real/kds`` parsed once per test session (with OCR a parse of KDS 14 31 10
takes tens of seconds): ``parsed(name)``, ``parsed(name, use_ocr=False)``."""

from __future__ import annotations

from functools import cache

from kdsdesk.ingest.pdf import parse_pdf
from kdsdesk.records import ParsedDoc
from tests.conftest import CORPUS


@cache
def parsed(name: str, use_ocr: bool = True) -> ParsedDoc:
    return parse_pdf(CORPUS / "real" / "kds" / name, use_ocr=use_ocr)
