"""The big hostile cases (not CI): time and peak memory of the app on them, each in a fresh process.

Cases (files generated into a temporary folder):

- ``pdf1500``: a 1,500-page text PDF, ``kdsdesk index`` (worker parse + chunk + Kiwi + Tantivy);
- ``xml190``: an HWPX of 5 sections × 190 MB of XML (each within the zip limits) — ``kdsdesk parse``: the parse
  worker's memory budget must end it with a Korean message, well under 2 GB;
- ``span3000`` / ``addr30000``: one cell claiming a 3000×3000 span, a cell at a 30000×30000 address —
  ``parse`` and ``ask`` (the table route reads column headers);
- ``table600``: an ordinary 600×12 table (``parse`` + row records);
- ``pack3g``: a pack whose member inflates to 3 GB — ``pack import`` must refuse before writing;
- ``open_check``: opening a catalog of ~50,000 chunks (SQLite ``quick_check`` on every open).

Peak memory: the command's process (``VmHWM``, its own high-water mark after ``exec``) and its children (the parse
worker, ``getrusage(RUSAGE_CHILDREN)``); inputs are generated in a separate process so their memory never counts.
Usage::

    .venv/bin/python bench/bench_hostile.py               # every case
    .venv/bin/python bench/bench_hostile.py pdf1500 xml190

Results also go to ``bench/out/bench_hostile.json``.
"""

from __future__ import annotations

import json
import os
import platform
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
GB = 1024**3


def _pdf1500(work: Path) -> list[str]:
    import pymupdf

    doc = pymupdf.open()
    font = pymupdf.Font("korea")
    for i in range(1500):
        page = doc.new_page()
        y = 60.0
        if i == 0:
            page.insert_text((72, y), "KDS 99 15 00 : 2024", fontsize=12)
            y += 20
        for j in range(28):
            text = f"{i + 1}.{j + 1} 설계 조항 {i}-{j}: 허용 응력은 {j + 10}.5 MPa 이하로 한다 (표 {i}.{j}-1 참조)."
            page.insert_text((72, y), text, fontsize=10, fontname="korea", fontfile=None)
            y += 24
    del font
    path = work / "big1500.pdf"
    doc.save(path)
    return ["index", str(path), "--no-dense", "--json", "--library", str(work / "lib")]


def _xml190(work: Path) -> list[str]:
    """5 sections of ~190 MB each: ordinary paragraphs of varied Hangul text (compresses ~3:1, so every zip check
    passes: entry size, total, ratio)."""
    import random

    from tests.data.hwpx_builder import para, section

    rng = random.Random(7)
    syllables = [chr(c) for c in range(0xAC00, 0xAC00 + 2000)]
    block = "".join(para(" ".join("".join(rng.choices(syllables, k=3)) for _ in range(30))) for _ in range(2000))
    head, tail = section(para("1 일반사항")).split("</hs:sec>")[0], "</hs:sec>"
    data = (head + block * ((190 * 1024 * 1024) // len(block.encode())) + tail).encode()
    path = work / "xml190.hwpx"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as z:
        z.writestr(zipfile.ZipInfo("mimetype"), "application/hwp+zip")
        z.writestr("Contents/header.xml", '<?xml version="1.0"?><hh:head xmlns:hh="urn:h" secCnt="5"/>')
        for i in range(5):
            z.writestr(f"Contents/section{i}.xml", data)
    return ["parse", "--json", str(path)]


def _span(work: Path) -> list[str]:
    from tests.data import hostile

    return ["parse", "--json", str(hostile.huge_span_hwpx(work / "span.hwpx", span=3000))]


def _addr(work: Path) -> list[str]:
    from tests.data import hostile

    return ["parse", "--json", str(hostile.far_address_hwpx(work / "far.hwpx", at=30000))]


def _span_ask(work: Path) -> list[str]:
    from tests.data import hostile

    lib = ["--library", str(work / "lib")]
    subprocess.run([sys.executable, "-m", "kdsdesk", "index", str(hostile.huge_span_hwpx(work / "span.hwpx")),
                    "--no-dense", *lib], check=False, capture_output=True)  # fmt: skip
    return ["ask", "--json", "--llm", "none", "표 1.1-1 시험 표의 값은?", *lib]


def _table600(work: Path) -> list[str]:
    from tests.data import hostile

    return ["parse", "--json", str(hostile.big_table_hwpx(work / "t600.hwpx", rows=600, cols=12))]


def _pack3g(work: Path) -> list[str]:
    from kdsdesk.index import pack
    from kdsdesk.index.indexer import add_files
    from kdsdesk.index.library import Catalog
    from kdsdesk.service import drain
    from tests.data.synthetic_docs import fake_parse, make_library_files

    root = work / "src-lib"
    cat = Catalog(root)
    drain(add_files(cat, list(make_library_files(work / "docs").values()), parse=fake_parse))
    cat.close()
    good = pack.export_pack(root, work / "good.kdspack").path
    bad = work / "bomb.kdspack"
    with zipfile.ZipFile(good) as src, zipfile.ZipFile(bad, "w", zipfile.ZIP_DEFLATED) as dst:
        manifest = json.loads(src.read(pack.PACK_MANIFEST))
        manifest["files"]["lexical/big.bin"] = {"size": 1024, "sha256": "0" * 64}
        for info in src.infolist():
            if info.filename != pack.PACK_MANIFEST:
                dst.writestr(info, src.read(info))
        dst.writestr(pack.PACK_MANIFEST, json.dumps(manifest))
        with dst.open("library/lexical/big.bin", "w", force_zip64=True) as out:
            block = b"\0" * (64 << 20)
            for _ in range(48):  # 3 GB of zeros, a few MB compressed
                out.write(block)
    return ["pack", "import", str(bad), "--library", str(work / "target-lib")]


def _open_check(work: Path) -> list[str]:
    """A catalog of 50,000 chunks (~2 KB of text each, ~100 MB of SQLite) written straight through the catalog
    (no Kiwi: only the open-time ``quick_check`` is measured, by ``kdsdesk list``)."""
    from kdsdesk.index.library import Catalog
    from kdsdesk.text.chunk import chunk_document
    from tests.data.synthetic_docs import parsed_from_spec, write_spec

    cat = Catalog(work / "lib")
    for i in range(50):
        text = "(1) 허용 처짐은 {j}.5 mm 이하로 하며, 부재의 종류와 하중 조건에 따라 표의 값을 적용한다. " * 24
        spec = {"code": f"KDS 98 00 {i:02d}", "title": "열기 시험", "year": "2024",
                "blocks": [[f"{j}.1", "text", text.format(j=j)] for j in range(1000)]}  # fmt: skip
        path = write_spec(work / f"d{i:03d}.pdf", spec)
        parsed = parsed_from_spec(path, spec, f"{i:064x}")
        chunks = chunk_document(parsed)
        st = path.stat()
        file_id = cat.begin_file(str(path.resolve()), "pdf", parsed.doc.sha256, st.st_size, st.st_mtime)
        cat.finish_file(file_id, parsed, chunks, "bench", "bench")
    cat.close()
    return ["list", "--json", "--library", str(work / "lib")]


CASES = {
    "pdf1500": _pdf1500, "xml190": _xml190, "span3000": _span, "addr30000": _addr, "span_ask": _span_ask,
    "table600": _table600, "pack3g": _pack3g, "open_check": _open_check,
}  # fmt: skip

RUN = """
import json, resource, sys, time, io, contextlib
from kdsdesk import cli
argv = json.loads(sys.argv[1])
out, err = io.StringIO(), io.StringIO()
t = time.perf_counter()
with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
    code = cli.main(argv)
wall = time.perf_counter() - t
from pathlib import Path
hwm = [line for line in Path("/proc/self/status").read_text().splitlines() if line.startswith("VmHWM:")]
self_kb = int(hwm[0].split()[1]) if hwm else resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
child_kb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
print(json.dumps({"code": code, "wall_s": wall, "self_mb": self_kb / 1024, "child_mb": child_kb / 1024,
                  "stderr": err.getvalue()[-400:], "stdout_bytes": len(out.getvalue())}))
"""


def _dir_bytes(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file()) if folder.exists() else 0


def run_case(name: str) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix=f"kds-bench-{name}-") as tmp:
        work = Path(tmp)
        env = {**os.environ, "PYTHONPATH": str(REPO), "KDSDESK_HOME": str(work / "home")}
        t = time.perf_counter()  # inputs are made in a process of their own: its memory never counts below
        made_out = subprocess.run([sys.executable, __file__, "--make", name, str(work)], env=env, cwd=REPO,
                                  capture_output=True, text=True, check=True)  # fmt: skip
        argv = json.loads(made_out.stdout.strip().splitlines()[-1])
        made = time.perf_counter() - t
        proc = subprocess.run([sys.executable, "-c", RUN, json.dumps(argv)], cwd=REPO, env=env,
                              capture_output=True, text=True)  # fmt: skip
        try:
            result: dict[str, Any] = json.loads(proc.stdout.strip().splitlines()[-1])
        except (IndexError, ValueError):
            result = {"code": proc.returncode, "error": proc.stderr[-800:]}
        result.update({"case": name, "argv": argv[0] + (" " + argv[1] if argv[0] == "pack" else ""),
                       "input_made_s": round(made, 1)})  # fmt: skip
        if name == "pack3g":
            result["target_bytes_written"] = _dir_bytes(work / "target-lib")
        result["peak_mb"] = round(max(result.get("self_mb", 0), result.get("child_mb", 0)), 0)
        return result


def main() -> int:
    if sys.argv[1:2] == ["--make"]:
        print(json.dumps(CASES[sys.argv[2]](Path(sys.argv[3]))))
        return 0
    names = sys.argv[1:] or list(CASES)
    info = {"machine": f"{platform.node()} {platform.machine()} {os.cpu_count()} CPU",
            "python": platform.python_version(), "date": time.strftime("%Y-%m-%d")}  # fmt: skip
    rows = []
    for name in names:
        r = run_case(name)
        rows.append(r)
        over = r["peak_mb"] > 2048
        print(f"{name:11} exit {r.get('code')} {r.get('wall_s', 0):7.1f} s  peak {r['peak_mb']:6.0f} MB"
              f"{'  OVER 2 GB' if over else ''}  {str(r.get('stderr', r.get('error', ''))).strip()[-160:]}",
              flush=True)  # fmt: skip
    out = REPO / "bench" / "out"
    out.mkdir(exist_ok=True)
    (out / "bench_hostile.json").write_text(json.dumps({"info": info, "rows": rows}, ensure_ascii=False, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
