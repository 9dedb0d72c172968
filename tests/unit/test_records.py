"""``Table``: the expanded grid is built once per table, linear in its positions, and gives the same records as a
position-by-position reading of the cells."""

from __future__ import annotations

from kdsdesk.records import Table, TableCell


def _naive_grid(t: Table) -> list[list[TableCell | None]]:
    g: list[list[TableCell | None]] = [[None] * t.n_cols for _ in range(t.n_rows)]
    for c in t.cells:
        for r in range(c.row, min(c.row + c.rowspan, t.n_rows)):
            for k in range(c.col, min(c.col + c.colspan, t.n_cols)):
                g[r][k] = c
    return g


def _merged_table() -> Table:
    cells = (
        TableCell(0, 0, "구분", rowspan=2, is_header=True),
        TableCell(0, 1, "상한값(MPa)", colspan=2, is_header=True),
        TableCell(1, 1, "일반", is_header=True),
        TableCell(1, 2, "지진", is_header=True),
        TableCell(2, 0, "SD400"),
        TableCell(2, 1, "400", rowspan=2),
        TableCell(2, 2, "350"),
        TableCell(3, 0, "SD500"),
        TableCell(3, 2, "450", colspan=5),  # runs past the table's edge: cut there
    )
    return Table("1.1-1", "표 1.1-1 철근", 4, 3, cells, header_rows=2)


def test_grid_is_built_once_and_matches_a_cell_by_cell_reading() -> None:
    t = _merged_table()
    assert t.grid() is t.grid()
    assert t.grid() == _naive_grid(t)
    assert t.column_headers(2) == ["상한값(MPa)", "지진"]


def test_the_cached_grid_is_not_part_of_the_tables_identity() -> None:
    a, b = _merged_table(), _merged_table()
    a.grid()
    assert a == b
    assert hash(a) == hash(b)
    assert "_grid" not in repr(a)


def test_row_records_of_a_big_table_use_each_column_header_once() -> None:
    rows, cols = 300, 12
    cells = [TableCell(0, k, f"머리{k}", is_header=True) for k in range(cols)]
    cells += [TableCell(r, k, f"{r}.{k}") for r in range(1, rows) for k in range(cols)]
    t = Table("2", "표 2 큰 표", rows, cols, tuple(cells))
    calls = {"n": 0}
    real = Table.column_headers

    def counting(self: Table, col: int) -> list[str]:
        calls["n"] += 1
        return real(self, col)

    Table.column_headers = counting  # type: ignore[method-assign]
    try:
        records = t.row_records()
    finally:
        Table.column_headers = real  # type: ignore[method-assign]
    assert calls["n"] == cols  # not rows × cols
    assert len(records) == rows - 1
    assert records[0] == "표 2 큰 표 | " + " · ".join(f"머리{k}: 1.{k}" for k in range(cols))


def test_origin_grid_marks_covered_positions() -> None:
    g = _merged_table().origin_grid()
    assert g[0] == ["구분", "상한값(MPa)", None]
    assert g[1] == [None, "일반", "지진"]
    assert g[3] == ["SD500", None, "450"]
