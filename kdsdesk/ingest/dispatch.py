"""Which parser reads a file: ``sniff`` its first bytes (not only the extension) and refuse what we cannot read.

``parse_file`` runs in-process; ``kdsdesk.ingest.isolate`` runs it in a worker process with a time limit (the
indexer uses that, so a hostile file cannot crash or hang the app).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from kdsdesk.errors import KnownError
from kdsdesk.ingest.sniff import sniff
from kdsdesk.records import ParsedDoc


def parse_file(path: Path, progress: Callable[[str, int, int], None] | None = None) -> ParsedDoc:
    """Parse one PDF or HWPX file in this process. Raises ``KnownError`` for files we cannot read. ``progress``
    hears about long steps inside a file (OCR: stage, done, total). Every text leaves sanitised
    (``kdsdesk.ingest.sanitize``)."""
    from kdsdesk.ingest.sanitize import clean_parsed

    path = Path(path).resolve()
    kind = sniff(path)
    if kind == "pdf":
        from kdsdesk.ingest.pdf import parse_pdf

        try:
            return clean_parsed(parse_pdf(path, progress=progress))
        except KnownError:
            raise
        except Exception as exc:
            if not type(exc).__module__.startswith(("pymupdf", "fitz")):
                raise
            # MuPDF refused the file's structure (a page tree that loops, broken objects): the user's file
            raise KnownError(
                f"PDF 파일의 구조가 손상되어 읽을 수 없습니다({str(exc)[:120]}). 원본 파일을 다시 받아 주세요.",
                path=str(path),
            ) from exc
    from kdsdesk.ingest.hwpx import parse_hwpx

    return clean_parsed(parse_hwpx(path))
