"""Safe reading of zip packages (HWPX) and their XML: a hostile file gives a Korean ``KnownError``, never a hang.

Checks, before any entry is inflated: the file really is a zip (an HWP 5/OLE binary, a PDF or an empty file is
refused through ``sniff.sniff``, so messages match), entry count, declared per-entry and total sizes,
compression ratio (zip bomb), path traversal, encrypted entries (zip flag or ODF ``encryption-data`` in
``META-INF/manifest.xml``). Reads are capped at the limit whatever the headers claim. XML is parsed by lxml with
entity resolution, network and huge trees off; any DTD/entity declaration is refused up front (billion laughs).
"""

from __future__ import annotations

import codecs
import re
import zipfile
import zlib
from pathlib import Path, PurePosixPath
from types import TracebackType
from typing import Any

from lxml import etree

from kdsdesk.errors import KnownError
from kdsdesk.ingest.sniff import sniff

MAX_ENTRIES = 5000
MAX_ENTRY_BYTES = 200 * 1024 * 1024  # one XML part, uncompressed
MAX_TOTAL_BYTES = 1024 * 1024 * 1024  # all entries, as declared
MAX_RATIO = 200.0  # uncompressed / compressed, for entries above RATIO_MIN_BYTES
RATIO_MIN_BYTES = 1024 * 1024
HWPX_MIMETYPES = ("application/hwp+zip", "application/haansofthwpx", "application/hwpml-package")

_XML_DECL_ENCODING = re.compile(r"""^(\s*<\?xml[^>]*?encoding\s*=\s*)["'][^"']*["']""")
_CORRUPT = "HWPX 파일이 손상되었거나 일부만 받아졌습니다. 원본 파일을 다시 받아 주세요."
_BOMB = "HWPX 파일의 압축 내용이 비정상적으로 큽니다(압축 폭탄 의심). 신뢰할 수 있는 원본 파일인지 확인하세요."
_ENCRYPTED = "암호가 걸린 HWPX 문서는 읽을 수 없습니다. 한글에서 문서 암호를 해제하고 다시 저장한 뒤 추가하세요."
_XML_DTD = "HWPX 문서의 XML에 허용되지 않는 DTD/엔터티 선언이 있습니다(XML 폭탄 의심). 원본 파일인지 확인하세요."


def xml_parser() -> Any:
    """An lxml parser that never resolves entities, never touches the network and refuses huge trees."""
    return etree.XMLParser(
        resolve_entities=False,
        no_network=True,
        huge_tree=False,
        load_dtd=False,
        dtd_validation=False,
        remove_comments=True,
        remove_pis=True,
    )


def as_utf8(data: bytes) -> bytes:
    """XML in UTF-16 (with a byte-order mark, or ``<`` as a 16-bit unit) as UTF-8 bytes with its declaration
    saying so, so every check below reads it as text; UTF-8 (with or without its BOM) is returned as it is."""
    if data[:2] in (codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE):
        encoding = "utf-16"
    elif data[:2] == b"<\x00":
        encoding = "utf-16-le"
    elif data[:2] == b"\x00<":
        encoding = "utf-16-be"
    else:
        return data
    try:
        text = data.decode(encoding)
    except UnicodeDecodeError:
        return data  # left to the checks below: broken XML
    text = _XML_DECL_ENCODING.sub(r'\1"UTF-8"', text.lstrip("\ufeff"), count=1)
    return text.encode("utf-8")


def parse_xml(data: bytes, path: str, part: str = "") -> Any:
    """Parse one XML part safely; ``KnownError`` for DTD/entity declarations or broken XML."""
    data = as_utf8(data)
    head = data.lstrip()[:1].decode("latin-1")
    if head and head not in "<\ufeff\xef":
        raise KnownError(f"HWPX 문서의 XML({part})이 손상되었습니다. 원본 파일을 다시 받아 주세요.", path=path)
    if b"<!DOCTYPE" in data or b"<!ENTITY" in data or b"<!doctype" in data:
        raise KnownError(_XML_DTD, path=path)
    try:
        return etree.fromstring(data, parser=xml_parser())
    except etree.XMLSyntaxError as exc:
        raise KnownError(
            f"HWPX 문서의 XML({part})이 손상되어 읽을 수 없습니다: {exc.msg}. 원본 파일을 다시 받아 주세요.", path=path
        ) from exc


def _safe_name(name: str) -> bool:
    p = PurePosixPath(name.replace("\\", "/"))
    return not p.is_absolute() and ".." not in p.parts and ":" not in name and "\x00" not in name


class ZipPackage:
    """A checked, read-only zip package. Use as a context manager; ``read``/``read_xml`` are capped."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self._where = str(self.path)
        if sniff(self.path) != "hwpx":
            raise KnownError("HWPX(zip) 형식이 아닙니다. 한글에서 'HWPX' 또는 'PDF'로 저장한 뒤 추가하세요.",
                             path=self._where)
        try:
            self._zip = zipfile.ZipFile(self.path)
            infos = self._zip.infolist()
        except (zipfile.BadZipFile, zlib.error, EOFError, ValueError, NotImplementedError) as exc:
            raise KnownError(_CORRUPT, path=self._where) from exc
        except OSError as exc:
            raise KnownError(f"HWPX 파일을 읽을 수 없습니다: {exc.strerror or exc}", path=self._where) from exc
        try:
            self._check(infos)
        except KnownError:
            self._zip.close()
            raise
        self._infos = {i.filename: i for i in infos if not i.is_dir()}

    def _check(self, infos: list[zipfile.ZipInfo]) -> None:
        if len(infos) > MAX_ENTRIES:
            raise KnownError(
                f"HWPX 파일의 항목 수가 너무 많습니다({len(infos)}개). 파일을 확인하세요.", path=self._where
            )
        total = 0
        for info in infos:
            if not _safe_name(info.filename):
                raise KnownError(
                    "HWPX 파일에 허용되지 않는 경로의 항목이 있습니다(경로 조작 의심). "
                    "신뢰할 수 있는 파일인지 확인하세요.",
                    path=self._where,
                )
            if info.flag_bits & 0x1:
                raise KnownError(_ENCRYPTED, path=self._where)
            total += info.file_size
            if total > MAX_TOTAL_BYTES:
                raise KnownError(_BOMB, path=self._where)
            if info.file_size > RATIO_MIN_BYTES and info.file_size > MAX_RATIO * max(info.compress_size, 1):
                raise KnownError(_BOMB, path=self._where)

    # -- context manager ---------------------------------------------------------------------------------------
    def __enter__(self) -> ZipPackage:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    def close(self) -> None:
        self._zip.close()

    # -- reading -----------------------------------------------------------------------------------------------
    @property
    def names(self) -> list[str]:
        return list(self._infos)

    def has(self, name: str) -> bool:
        return name in self._infos

    def find(self, name: str) -> str | None:
        """The stored name equal to ``name`` ignoring case and a leading ``/`` (HWPX writers differ)."""
        if name in self._infos:
            return name
        want = name.lstrip("/").lower()
        for n in self._infos:
            if n.lstrip("/").lower() == want:
                return n
        return None

    def read(self, name: str, limit: int = MAX_ENTRY_BYTES) -> bytes:
        """The entry's bytes, inflated at most ``limit`` bytes (the headers' sizes are not trusted)."""
        info = self._infos.get(name)
        if info is None:
            raise KnownError(f"HWPX 문서에 '{name}' 항목이 없습니다. 파일이 손상되었을 수 있습니다.", path=self._where)
        if info.file_size > limit:
            raise KnownError(_BOMB, path=self._where)
        try:
            with self._zip.open(info) as f:
                data = f.read(limit + 1)
        except RuntimeError as exc:  # "File is encrypted, password required"
            raise KnownError(_ENCRYPTED, path=self._where) from exc
        except (zipfile.BadZipFile, zlib.error, EOFError, ValueError, NotImplementedError, OSError) as exc:
            raise KnownError(_CORRUPT, path=self._where) from exc
        if len(data) > limit:
            raise KnownError(_BOMB, path=self._where)
        return data

    def read_xml(self, name: str) -> Any:
        return parse_xml(self.read(name), self._where, name)


def open_hwpx(path: Path) -> ZipPackage:
    """Open an HWPX package with every check done; refuses encrypted documents and non-HWPX zips."""
    pkg = ZipPackage(path)
    try:
        mt = pkg.find("mimetype")
        if mt is not None:
            mime = pkg.read(mt, 4096).decode("utf-8", "replace").strip()
            if mime and mime not in HWPX_MIMETYPES:
                raise KnownError(
                    f"HWPX 문서가 아닌 zip 파일입니다(mimetype: {mime[:60]}). PDF 또는 HWPX 파일만 추가할 수 있습니다.",
                    path=str(path),
                )
        manifest = pkg.find("META-INF/manifest.xml")
        if manifest is not None and b"encryption-data" in pkg.read(manifest):
            raise KnownError(_ENCRYPTED, path=str(path))
        if not any(n.lower().startswith("contents/") for n in pkg.names):
            raise KnownError(
                "HWPX 문서의 본문(Contents)이 없습니다. 한글에서 다시 저장한 뒤 추가하세요.", path=str(path)
            )
    except KnownError:
        pkg.close()
        raise
    return pkg
