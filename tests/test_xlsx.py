"""The streamed .xlsx reader: values as openpyxl reads them, and every limit stops the read with one clear line
before the work it guards is done (workbooks written byte by byte in tests/helpers/xlsx_files.py)."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import xlsx_files as X

from mathreel.core.errors import InputError
from mathreel.core.results import read_results
from mathreel.core.results.load import load_records
from mathreel.core.results.xlsx import XlsxLimits, xlsx_records

MATHREEL = Path(sys.executable).with_name("mathreel")


def records(data: bytes, **limits: int) -> list[dict]:
    return xlsx_records(data, "book.xlsx", XlsxLimits(**limits))


def refused(data: bytes, match: str, **limits: int) -> InputError:
    with pytest.raises(InputError, match=match) as caught:
        records(data, **limits)
    assert str(caught.value).startswith("book.xlsx")
    return caught.value


# ------------------------------------------------------------------ values


def test_a_pandas_written_workbook_reads_as_pandas_reads_it():
    import pandas as pd

    frame = pd.DataFrame(
        {
            "index": [0, 1, 2],
            "prediction": ["A", "The answer is B.", None],
            "score": [1.5, None, 3.25],
            "video": ["001", "002", "003"],
        }
    )
    buffer = io.BytesIO()
    frame.to_excel(buffer, index=False, engine="openpyxl")
    got = records(buffer.getvalue())
    assert got == [
        {"index": 0, "prediction": "A", "score": 1.5, "video": "001", "__line__": 2},
        {"index": 1, "prediction": "The answer is B.", "score": None, "video": "002", "__line__": 3},
        {"index": 2, "prediction": None, "score": 3.25, "video": "003", "__line__": 4},
    ]


def test_text_that_pandas_would_turn_into_nothing_stays_text():
    got = records(X.table([["question_id", "response"], ["q1", "None"], ["q2", "NA"], ["q3", "#N/A"]]))
    assert [r["response"] for r in got] == ["None", "NA", "#N/A"]


def test_cell_types_shared_strings_rich_text_dates_booleans_errors_and_formulas():
    strings = (
        f'<sst xmlns="{X.MAIN}"><si><t>plain</t></si><si><r><t>ri</t></r><r><t>ch</t></r>'
        "<rPh><t>PHONETIC</t></rPh></si></sst>"
    )
    rows = [
        '<row r="1"><c r="A1" t="inlineStr"><is><t>a</t></is></c><c r="B1" t="inlineStr"><is><t>b</t></is></c>'
        '<c r="C1" t="inlineStr"><is><t>c</t></is></c><c r="D1" t="inlineStr"><is><t>d</t></is></c>'
        '<c r="E1" t="inlineStr"><is><t>e</t></is></c><c r="F1" t="inlineStr"><is><t>f</t></is></c></row>',
        '<row r="2"><c r="A2" t="s"><v>0</v></c><c r="B2" t="s"><v>1</v></c><c r="C2" s="1"><v>45413.5</v></c>'
        '<c r="D2" t="b"><v>1</v></c><c r="E2" t="e"><v>#DIV/0!</v></c>'
        '<c r="F2" t="str"><f>A2&amp;"!"</f><v>plain!</v></c></row>',
    ]
    got = records(X.workbook(X.sheet(rows), strings=strings))
    assert got == [
        {"a": "plain", "b": "rich", "c": "2024-05-01 12:00:00", "d": True, "e": "#DIV/0!", "f": "plain!", "__line__": 2}
    ]


def test_rows_and_cells_without_references_and_a_namespace_prefix():
    body = (
        '<?xml version="1.0"?><x:worksheet xmlns:x="' + X.MAIN + '"><x:sheetData>'
        '<x:row><x:c t="inlineStr"><x:is><x:t>id</x:t></x:is></x:c><x:c t="inlineStr"><x:is><x:t>n</x:t></x:is>'
        '</x:c></x:row><x:row><x:c t="inlineStr"><x:is><x:t>q1</x:t></x:is></x:c><x:c><x:v>7</x:v></x:c></x:row>'
        "</x:sheetData></x:worksheet>"
    )
    assert records(X.workbook(body)) == [{"id": "q1", "n": 7, "__line__": 2}]


def test_blank_rows_are_skipped_and_rows_keep_their_sheet_numbers():
    rows = X.table_rows([["id", "response"]]) + X.table_rows([["q1", "A"]], first=5)
    assert records(X.workbook(X.sheet(rows))) == [{"id": "q1", "response": "A", "__line__": 5}]


def test_blank_and_repeated_header_names_are_named_as_pandas_names_them():
    got = records(X.table([["id", None, "id"], ["q1", 2, 3]]))
    assert got == [{"id": "q1", "Unnamed: 1": 2, "id.1": 3, "__line__": 2}]


# ------------------------------------------------------------------ hostile workbooks that are cheap to read


def test_one_cell_at_xfd1048576_costs_one_cell():
    got = records(X.far_cell())
    assert len(got) == 2 and got[1] == {
        "index": None,
        "question": None,
        "answer": None,
        "prediction": None,
        "Unnamed: 16383": 1,
        "__line__": 1048576,
    }


def test_three_thousand_rows_at_column_xfd_stay_sparse():
    got = records(X.rows_at_xfd(3000))
    assert len(got) == 3000 and all(len(record) == 6 for record in got)  # 4 header columns, XFD, __line__


# ------------------------------------------------------------------ limits


@pytest.mark.parametrize(
    "make, match, limits",
    [
        (lambda: X.many_rows(50), "more than 20 rows", {"rows": 20}),
        (lambda: X.wide_header(40), "values in more than 30 columns", {"columns": 30}),
        (lambda: X.many_rows(50, columns=4), "more than 100 cells in the sheet", {"cells": 100}),
        (lambda: X.many_rows(50, columns=4), "more than 150 XML elements", {"elements": 150}),
        (lambda: X.many_rows(2000), "inflates to more than", {"inflated_bytes": 50_000}),
        (lambda: X.strings_bomb(5000), "more than 1,000 shared strings", {"shared_strings": 1000}),
        (lambda: X.styles_bomb(5000), "more than 1,000 cell formats", {"cell_formats": 1000}),
        (lambda: X.many_members(50), "entries, more than a workbook's 20", {"members": 20}),
    ],
)
def test_each_limit_stops_the_read_with_one_line(make, match, limits):
    refused(make(), match, **limits)


def test_the_table_handed_on_is_bounded_too():
    # A wide header and many short rows: few cells in the sheet, but rows x columns in the records.
    rows = X.table_rows([[f"c{i}" for i in range(50)]]) + X.table_rows([[r] for r in range(100)], first=2)
    refused(X.workbook(X.sheet(rows)), r"table passes 1,000 cells \(21 rows x 50 columns\)", cells=1000)


def test_the_real_zip_bomb_styles_bomb_and_strings_bomb_are_refused_under_the_default_limits():
    refused(X.zip_bomb(), "more than 200,000 rows")
    refused(X.styles_bomb(400_000), "styles.xml inflates to more than 16 MB")
    refused(X.strings_bomb(1_000_001), "more than 1,000,000 shared strings")
    refused(X.wide_header(), "values in more than 512 columns")


def test_entities_are_refused_before_any_expansion():
    for data in (X.billion_laughs(), X.external_entity()):
        refused(data, "declares a document type")


def test_a_zip_whose_directory_understates_a_part_stops_at_the_bytes_really_inflated():
    refused(X.lying_size(), "damaged or encrypted part")


@pytest.mark.parametrize(
    "make, match",
    [
        (X.bad_shared_index, "names shared string '999999'"),
        (X.not_xml_sheet, "not well-formed XML"),
        (lambda: X.workbook(X.sheet(['<row r="0"><c r="A0"><v>1</v></c></row>'])), "not a spreadsheet row"),
        (lambda: X.workbook(X.sheet(['<row r="2"><c r="A3"><v>1</v></c></row>'])), "not a cell of row 2"),
        (lambda: X.workbook(X.sheet(['<row r="2"><c r="XFE2"><v>1</v></c></row>'])), "not a cell of row 2"),
        (lambda: X.workbook(X.sheet(['<row r="1"><c r="A1"><v>abc</v></c></row>'])), "numeric cell holds 'abc'"),
        (lambda: X.workbook(X.sheet([])), "first sheet is empty"),
        (lambda: X.table([["id", "response"]]), "header but no rows"),
        (lambda: b"PK\x03\x04" + bytes(300), "unreadable .xlsx"),
    ],
)
def test_damaged_workbooks_are_one_line(make, match):
    refused(make(), match)


def test_load_records_reads_xlsx_through_the_streamed_reader(tmp_path):
    path = tmp_path / "run.xlsx"
    path.write_bytes(X.table([["question_id", "response"], ["q1", "A"]]))
    assert load_records(path) == ([{"question_id": "q1", "response": "A", "__line__": 2}], "xlsx")


def test_a_vlmevalkit_workbook_scores(tmp_path):
    path = tmp_path / "model_Video-MME.xlsx"
    path.write_bytes(X.vlmevalkit(30))
    result = read_results(path)
    assert result.benchmark == "videomme" and len(result.predictions) == 30


@pytest.mark.parametrize("make", [X.far_cell, X.zip_bomb, X.billion_laughs])
def test_the_cli_prints_one_line_for_a_hostile_workbook(tmp_path, make):
    path = tmp_path / "hostile.xlsx"
    path.write_bytes(make())
    run = subprocess.run([str(MATHREEL), "score", str(path)], capture_output=True, text=True, timeout=120)
    assert run.returncode == 2, run.stderr
    assert run.stderr.count("\n") == 1 and run.stderr.startswith(f"mathreel: {path}")
