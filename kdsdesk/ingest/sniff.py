"""What a file is, from its first bytes (not only the extension): ``"pdf"``, ``"hwpx"`` or a Korean refusal.

Below the format parsers: ``guard`` (the HWPX zip checks) and ``dispatch`` (which parser reads a file) both ask here.
"""

from __future__ import annotations

from pathlib import Path

from kdsdesk.errors import KnownError
from kdsdesk.records import FileKind

PDF_MAGIC = b"%PDF"
ZIP_MAGIC = b"PK\x03\x04"
OLE_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"  # HWP 5 binary (and other OLE compound files)
SUPPORTED_SUFFIXES = (".pdf", ".hwpx")


def sniff(path: Path) -> FileKind:
    """Return ``"pdf"`` or ``"hwpx"`` from the file's content, or raise ``KnownError`` in Korean."""
    try:
        size = path.stat().st_size
        with path.open("rb") as f:
            head = f.read(1024)
    except FileNotFoundError as exc:
        raise KnownError("파일을 찾을 수 없습니다.", path=str(path)) from exc
    except PermissionError as exc:
        raise KnownError(
            "파일을 읽을 권한이 없거나 다른 프로그램이 파일을 잠그고 있습니다. 파일을 닫은 뒤 다시 시도하세요.",
            path=str(path),
        ) from exc
    except OSError as exc:
        raise KnownError(f"파일을 읽을 수 없습니다: {exc.strerror or exc}", path=str(path)) from exc
    if size == 0:
        raise KnownError("빈 파일(0바이트)입니다. 원본 파일을 다시 받아 주세요.", path=str(path))
    if head.startswith(OLE_MAGIC):
        raise KnownError(
            "HWP 5 바이너리 문서(.hwp)는 읽을 수 없습니다. 한글에서 'HWPX' 또는 'PDF'로 저장한 뒤 추가하세요.",
            path=str(path),
        )
    if head.startswith(PDF_MAGIC) or (PDF_MAGIC + b"-" in head and path.suffix.lower() == ".pdf"):
        return "pdf"  # a PDF header may follow a little junk; a text file that mentions "%PDF" is not a PDF
    if head.startswith(ZIP_MAGIC):
        return "hwpx"
    suffix = path.suffix.lower()
    if suffix == ".hwp":
        raise KnownError(
            "HWP 문서는 읽을 수 없습니다. 한글에서 'HWPX' 또는 'PDF'로 저장한 뒤 추가하세요.", path=str(path)
        )
    raise KnownError(
        "지원하지 않는 파일 형식입니다. PDF 또는 HWPX 파일만 추가할 수 있습니다.", path=str(path)
    )
