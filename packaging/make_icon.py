"""Draw the application icon ``packaging/kdsdesk.ico`` (PNG-compressed ICO, 16–256 px) with PyMuPDF.

A dark-blue rounded square with a white open book and "KDS". Deterministic: re-running gives the same file.

    .venv/bin/python packaging/make_icon.py
"""

from __future__ import annotations

import struct
from pathlib import Path

SIZES = (16, 24, 32, 48, 64, 128, 256)
OUT = Path(__file__).resolve().parent / "kdsdesk.ico"


def _png(size: int) -> bytes:
    import pymupdf

    doc = pymupdf.open()
    page = doc.new_page(width=256, height=256)
    blue, white = (0.07, 0.24, 0.47), (1.0, 1.0, 1.0)
    shape = page.new_shape()
    shape.draw_rect(pymupdf.Rect(8, 8, 248, 248), radius=0.18)
    shape.finish(color=None, fill=blue)
    # open book: two pages meeting at the spine
    shape.draw_polyline([(48, 78), (124, 92), (124, 176), (48, 162), (48, 78)])
    shape.finish(color=None, fill=white)
    shape.draw_polyline([(132, 92), (208, 78), (208, 162), (132, 176), (132, 92)])
    shape.finish(color=None, fill=white)
    shape.commit()
    width = pymupdf.get_text_length("KDS", fontname="hebo", fontsize=48)
    page.insert_text(((256 - width) / 2, 226), "KDS", fontsize=48, fontname="hebo", color=white)
    pix = page.get_pixmap(matrix=pymupdf.Matrix(size / 256, size / 256), alpha=True)
    return bytes(pix.tobytes("png"))


def build() -> bytes:
    images = [_png(s) for s in SIZES]
    header = struct.pack("<HHH", 0, 1, len(images))
    offset = 6 + 16 * len(images)
    entries = b""
    for size, data in zip(SIZES, images, strict=True):
        dim = 0 if size >= 256 else size  # 0 means 256 in an ICO directory entry
        entries += struct.pack("<BBBBHHII", dim, dim, 0, 0, 1, 32, len(data), offset)
        offset += len(data)
    return header + entries + b"".join(images)


if __name__ == "__main__":
    OUT.write_bytes(build())
    print(f"{OUT} ({OUT.stat().st_size:,} bytes)")
