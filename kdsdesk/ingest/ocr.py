"""Offline OCR of Korean lettering: Tesseract 5 (through the ``tesserocr`` wheel, which bundles libtesseract) with
the Korean LSTM model ``kor.traineddata`` (tessdata_fast, Apache-2.0).

Why this engine (docs/BENCHMARKS.md, "OCR of outline lettering"): of the candidates that run offline on Windows and
Linux CPUs, it reads the outlined Hangul of the real KCSC PDFs best per millisecond; no ONNX OCR wheel on PyPI ships
a Korean recognition model (they download it at run time, which the app never does).

The engine reads grey images of one text line (``read_line``, outline lettering) or of a whole page
(``read_page``, scans) and returns words with their pixel boxes and confidences (0–1). The model is found in, in
order: ``KDSDESK_TESSDATA``, the bundle's ``resources/tessdata``, ``<venv>/share/tessdata`` (where ``make`` puts
it), ``TESSDATA_PREFIX`` and the usual system folders (Debian's ``tesseract-ocr-kor``, the Windows installer's).
Without ``tesserocr`` or the model, ``engine()`` is ``None``: outline lettering stays an unreadable region and a
scan is refused with a Korean message, as before.

One engine per process (Tesseract is not thread-safe): the parse worker process owns it.
"""

from __future__ import annotations

import functools
import hashlib
import logging
import os
import struct
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kdsdesk.paths import resource

log = logging.getLogger(__name__)

LANG = "kor"  # Hangul, digits, Latin and punctuation as KCSC prints them (the model's own charset)
MODEL = f"{LANG}.traineddata"
DPI = 400  # 8-pt Hangul ≈ 44 px tall (300 dpi reads as well on average but drops more syllables it cannot place)
MIN_CONF = 0.0  # every word is kept: a syllable the model lacks (휨) comes with confidence 0, and dropping it cut
# words in two (휨좌굴 → 좌굴); ``ocr_lexicon`` restores it, and each span keeps its confidence


@dataclass(frozen=True, slots=True)
class OcrWord:
    """A recognised word: text, box in the image's pixels (x0, y0, x1, y1), confidence 0–1 and whether a space
    comes before it in the recognised line (Tesseract cuts Korean into syllable "words" it then prints without
    spaces between them)."""

    text: str
    box: tuple[int, int, int, int]
    conf: float
    space: bool = True


def _system_dirs() -> list[Path]:
    dirs: list[Path] = []
    env = os.environ.get("TESSDATA_PREFIX")
    if env:
        dirs += [Path(env), Path(env) / "tessdata"]
    if sys.platform == "win32":
        for base in (os.environ.get("PROGRAMFILES"), os.environ.get("LOCALAPPDATA")):  # the UB Mannheim installer
            if base:
                dirs += [Path(base, "Tesseract-OCR", "tessdata"), Path(base, "Programs", "Tesseract-OCR", "tessdata")]
    else:
        dirs += [
            Path("/usr/share/tesseract-ocr/5/tessdata"),
            Path("/usr/share/tesseract-ocr/4.00/tessdata"),
            Path("/usr/share/tessdata"),
            Path("/usr/local/share/tessdata"),
            Path("/opt/homebrew/share/tessdata"),
        ]
    return dirs


def tessdata_dirs() -> list[Path]:
    """Folders searched for ``kor.traineddata``, in order."""
    dirs: list[Path] = []
    env = os.environ.get("KDSDESK_TESSDATA")
    if env:
        dirs.append(Path(env))
    dirs.append(resource("tessdata"))
    dirs.append(Path(sys.prefix) / "share" / "tessdata")
    return dirs + _system_dirs()


def find_model() -> Path | None:
    """The first ``kor.traineddata`` found, or ``None``."""
    for d in tessdata_dirs():
        p = d / MODEL
        if p.is_file():
            return p
    return None


@functools.cache
def _model_digest(path: str, size: int, mtime: float) -> str:
    h = hashlib.sha256()
    with Path(path).open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()[:12]


def engine_version() -> str:
    """``tesserocr-<version>+kor-<model digest>``, or ``none`` when OCR is not available: part of the PDF parser's
    version, so a library re-reads its PDFs when the engine or the model changes (or appears)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        wrapper = version("tesserocr")
    except PackageNotFoundError:
        return "none"
    model = find_model()
    if model is None:
        return "none"
    st = model.stat()
    return f"tesserocr-{wrapper}+{LANG}-{_model_digest(str(model), st.st_size, st.st_mtime)}"


class OcrEngine:
    """Tesseract with the Korean model, loaded once."""

    def __init__(self, model: Path) -> None:
        import tesserocr

        self._t: Any = tesserocr
        self.model = model
        self.api: Any = tesserocr.PyTessBaseAPI(
            path=f"{model.parent}{os.sep}", lang=LANG, psm=tesserocr.PSM.SINGLE_LINE, oem=tesserocr.OEM.LSTM_ONLY
        )
        self.name = f"Tesseract {tesserocr.tesseract_version().split()[1]} ({LANG}, tesserocr)"
        self.version = engine_version()
        self.charset = model_charset(model)

    def close(self) -> None:
        self.api.End()

    def _words(
        self, gray: bytes, width: int, height: int, stride: int, dpi: int, psm: Any, lines: bool = False
    ) -> list[OcrWord]:
        t = self._t
        self.api.SetPageSegMode(psm)
        self.api.SetImageBytes(gray, width, height, 1, stride)
        self.api.SetSourceResolution(dpi)
        self.api.Recognize()
        level = t.RIL.TEXTLINE if lines else t.RIL.WORD
        out: list[OcrWord] = []
        it = self.api.GetIterator()
        if it is None:  # nothing recognised
            return out
        full = self.api.GetUTF8Text() or ""
        # the iterator's line text puts a space between every syllable Tesseract cut; the page text has the real ones
        page_lines = [" ".join(ln.split()) for ln in full.splitlines() if ln.strip()]
        pos = 0
        for k, w in enumerate(t.iterate_level(it, level)):
            try:
                text = " ".join((w.GetUTF8Text(level) or "").split())
            except RuntimeError:  # "No text returned": an empty word
                continue
            if lines and k < len(page_lines) and page_lines[k].replace(" ", "") == text.replace(" ", ""):
                text = page_lines[k]
            box = w.BoundingBox(level)
            conf = w.Confidence(level) / 100.0
            at = full.find(text, pos) if text else -1
            space = at < 0 or at > pos or w.IsAtBeginningOf(t.RIL.TEXTLINE)
            if at >= 0:
                pos = at + len(text)
            if text and box is not None and conf >= MIN_CONF:
                out.append(OcrWord(text, (int(box[0]), int(box[1]), int(box[2]), int(box[3])), conf, space))
        return out

    def read_line(self, gray: bytes, width: int, height: int, stride: int, dpi: int = DPI) -> list[OcrWord]:
        """Words of a grey image (1 byte per pixel) holding one line of text. Tesseract 5.5's single-line mode
        returns nothing for some short rows (one or two syllables: "용", "받는") that its raw-line mode, which skips
        the line finding, reads; raw-line is the fallback only (as the first choice it reads longer rows worse)."""
        words = self._words(gray, width, height, stride, dpi, self._t.PSM.SINGLE_LINE)
        return words or self._words(gray, width, height, stride, dpi, self._t.PSM.RAW_LINE)

    def read_page(self, gray: bytes, width: int, height: int, stride: int, dpi: int = DPI) -> list[OcrWord]:
        """Text lines of a grey image of a whole page read as one column (KDS pages are; Tesseract's automatic layout
        lost most lines of a plain page), in reading order: one
        ``OcrWord`` per line (its words joined by spaces)."""
        return self._words(gray, width, height, stride, dpi, self._t.PSM.SINGLE_COLUMN, lines=True)


_LSTM_UNICHARSET = 21  # index of the LSTM model's character set in a .traineddata file (TessdataType)


@functools.cache
def model_charset(path: Path) -> frozenset[str]:
    """The characters the model can output (its LSTM unicharset): tessdata_fast's Korean model lacks some syllables
    of KDS text (휨, 댐, 얇, 굵 …), which ``correct`` restores from the document's own text layer."""
    data = path.read_bytes()
    (n,) = struct.unpack_from("<i", data, 0)
    offsets = struct.unpack_from(f"<{n}q", data, 4)
    start = offsets[_LSTM_UNICHARSET] if n > _LSTM_UNICHARSET else -1
    if start < 0:
        return frozenset()
    end = min([o for o in offsets if o > start] + [len(data)])
    lines = data[start:end].decode("utf-8", "replace").splitlines()[1:]
    return frozenset(ln.split(" ", 1)[0] for ln in lines if ln)


_ENGINE: list[OcrEngine | None] = []


def engine() -> OcrEngine | None:
    """This process's engine, loaded on first use; ``None`` when ``tesserocr`` or the Korean model is missing."""
    if _ENGINE:
        return _ENGINE[0]
    found: OcrEngine | None = None
    model = find_model()
    if model is None:
        log.info("OCR unavailable: %s not found in %s", MODEL, [str(d) for d in tessdata_dirs()])
    else:
        try:
            found = OcrEngine(model)
        except ImportError:
            log.info("OCR unavailable: tesserocr is not installed")
        except RuntimeError as exc:  # tesserocr raises RuntimeError when the model cannot be loaded
            log.warning("OCR unavailable: %s could not be loaded: %s", model, exc)
    _ENGINE.append(found)
    return found


def status() -> str:
    """One Korean line for ``doctor``: whether outline lettering and scans can be read."""
    model = find_model()
    if engine_version() != "none" and model is not None:
        return f"문자 인식(OCR): 사용 가능 — Tesseract 한국어 모델 {model}"
    if model is None:
        return (
            "문자 인식(OCR): 한국어 모델(kor.traineddata)이 없습니다 — 윤곽선으로 그린 글자와 스캔 PDF는 읽지 않습니다"
        )
    return "문자 인식(OCR): tesserocr가 설치되어 있지 않습니다 — 윤곽선으로 그린 글자와 스캔 PDF는 읽지 않습니다"
