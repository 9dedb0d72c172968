"""Which parser reads a file: ``sniff`` its first bytes (not only the extension) and refuse what we cannot read.

``parse_file`` runs in-process; ``kdsdesk.ingest.isolate`` runs it in a worker process with a time limit (the
indexer uses that, so a hostile file cannot crash or hang the app).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

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

        return clean_parsed(parse_pdf(path, progress=progress))
    from kdsdesk.ingest.hwpx import parse_hwpx

    return clean_parsed(parse_hwpx(path))
