"""Fill ``size`` and ``sha256`` of ``models/manifest.json`` from the model files on a release machine.

Run after the files are in place (packaging/fetch_models.md); entries whose file is absent are left as they are.
Then ``kdsdesk doctor --verify`` re-hashes everything against the filled manifest.

    .venv/bin/python packaging/fill_manifest.py [MODELS_DIR]      (default: models/)
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def fill(models: Path) -> list[str]:
    sys.path.insert(0, str(ROOT))
    from kdsdesk.hashing import sha256_of

    manifest = models / "manifest.json"
    data = json.loads(manifest.read_text(encoding="utf-8"))
    done: list[str] = []
    for entry in data["models"]:
        f = models.joinpath(*entry["file"].split("/"))
        if not f.is_file():
            continue
        entry["size"] = f.stat().st_size
        entry["sha256"] = sha256_of(f)
        entry.pop("release", None)  # the "fill on release machine" note no longer applies
        done.append(f"{entry['file']}: {entry['size']:,} bytes, sha256 {entry['sha256']}")
    tmp = manifest.with_suffix(".tmp")
    tmp.write_text(json.dumps(data, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    tmp.replace(manifest)
    return done


if __name__ == "__main__":
    for line in fill(Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "models"):
        print(line)
