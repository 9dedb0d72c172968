"""Library damage: every kind is found by ``check_library`` (what ``kdsdesk doctor`` shows), stops normal use
with a Korean ``LibraryDamaged`` instead of a traceback or a silently empty library, and ``repair_library``
restores search without losing documents, keeping the damaged parts in ``backup/``."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from kdsdesk.errors import LibraryDamaged
from kdsdesk.index.health import check_library, repair_library
from kdsdesk.index.indexer import add_files
from kdsdesk.index.library import Catalog
from kdsdesk.retrieve.hybrid import search
from kdsdesk.service import drain
from tests.data.synthetic_docs import fake_parse, make_library_files

TERMS = {"전단강도": "KDS 14 20 22", "고력볼트": "KDS 14 31 25"}  # term → the standard that holds it


def _build(tmp_path: Path) -> tuple[Path, dict[str, Path]]:
    files = make_library_files(tmp_path / "docs")
    root = tmp_path / "lib"
    cat = Catalog(root)
    drain(add_files(cat, list(files.values()), parse=fake_parse))
    cat.close()
    return root, files


def _searchable(root: Path) -> set[str]:
    cat = Catalog(root)
    try:
        return {d.file for d in cat.documents() if d.status == "searchable"}
    finally:
        cat.close()


def _finds(root: Path) -> bool:
    cat = Catalog(root)
    try:
        for term, code in TERMS.items():
            hits = search(cat, term, dense=False)
            if not hits or hits[0].chunk.doc.doc_code != code:
                return False
        return True
    finally:
        cat.close()


def _search_once(root: Path) -> None:
    cat = Catalog(root)
    try:
        search(cat, "전단강도", dense=False)
    finally:
        cat.close()


def _blank_catalog(root: Path) -> None:
    (root / "catalog.sqlite3").write_bytes(b"")


def _corrupt_catalog(root: Path) -> None:
    db = root / "catalog.sqlite3"
    data = bytearray(db.read_bytes())
    data[4096:] = b"\x5a" * (len(data) - 4096)  # every page after the first overwritten
    db.write_bytes(bytes(data))


def _drop_lexical_meta(root: Path) -> None:
    (root / "lexical" / "meta.json").unlink()


def _drop_lexical_folder(root: Path) -> None:
    shutil.rmtree(root / "lexical")


def _corrupt_segment(root: Path) -> None:
    for f in (root / "lexical").iterdir():
        if f.suffix in (".idx", ".term", ".store", ".pos"):
            f.write_bytes(b"\x00garbage" * 8)


def _lose_one_files_documents(root: Path) -> None:
    cat = Catalog(root)
    try:
        first = next(d.file for d in cat.documents() if d.status == "searchable")
        cat.lexical.delete_files([first])  # behind the catalog's back
    finally:
        cat.close()


DAMAGE: dict[str, tuple[Callable[[Path], None], str]] = {
    "blank catalog": (_blank_catalog, "catalog_blank"),
    "corrupt catalog": (_corrupt_catalog, "catalog_corrupt"),
    "meta.json gone": (_drop_lexical_meta, "lexical_missing"),
    "lexical folder gone": (_drop_lexical_folder, "lexical_missing"),
    "corrupt segment": (_corrupt_segment, "lexical_corrupt"),
    "documents lost from the index": (_lose_one_files_documents, "lexical_mismatch"),
}


def test_a_healthy_library_has_no_damage(tmp_path: Path) -> None:
    root, _ = _build(tmp_path)
    assert check_library(root) == []
    assert _finds(root)


@pytest.mark.parametrize("case", list(DAMAGE))
def test_each_damage_is_found_explained_and_repaired(tmp_path: Path, case: str) -> None:
    root, _ = _build(tmp_path)
    before = _searchable(root)
    damage, kind = DAMAGE[case]
    damage(root)

    found = check_library(root)
    assert [d.kind for d in found] == [kind]
    assert "복구" in found[0].message or kind == "lexical_mismatch"
    assert all("\uac00" <= ch <= "\ud7a3" for ch in found[0].message if ch.isalpha() and ord(ch) > 0x3000)

    if kind != "lexical_mismatch":  # normal use stops with the damage named, never an empty library
        with pytest.raises(LibraryDamaged) as info:
            _search_once(root)
        assert info.value.kind == kind
        assert "doctor --repair" in info.value.message

    report = drain(repair_library(root, found, parse=fake_parse))
    assert check_library(root) == []
    assert _searchable(root) == before  # no document lost
    assert _finds(root)
    if case == "lexical folder gone":
        assert report.backup == ""  # nothing was left to keep
    else:
        backup = Path(report.backup)
        assert backup.is_dir()
        assert backup.parent.name == "backup"
        assert any(backup.iterdir())  # the damaged parts were kept, not deleted


def test_a_blank_catalog_never_empties_the_search_index(tmp_path: Path) -> None:
    root, _ = _build(tmp_path)
    _blank_catalog(root)
    with pytest.raises(LibraryDamaged):
        Catalog(root)
    assert (root / "lexical" / "meta.json").is_file()
    assert any(p.suffix == ".idx" for p in (root / "lexical").iterdir())


def test_catalog_rebuilt_from_sources_json_when_sqlite_lists_nothing(tmp_path: Path) -> None:
    root, files = _build(tmp_path)
    _blank_catalog(root)
    assert (root / "sources.json").is_file()
    drain(repair_library(root, parse=fake_parse))
    assert _searchable(root) == {str(f.resolve()) for f in files.values()}


def test_an_interrupted_file_is_reported_and_cleared_by_repair(tmp_path: Path) -> None:
    root, files = _build(tmp_path)
    cat = Catalog(root)
    cat.begin_file(str(files["steel_pdf"].resolve()), "pdf", "x", 1, 1.0)
    cat.close()
    assert [d.kind for d in check_library(root)] == ["interrupted"]
    drain(repair_library(root))
    assert check_library(root) == []
