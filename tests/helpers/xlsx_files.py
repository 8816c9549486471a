"""Workbooks written byte by byte for the tests and bench/bench_hostile.py: a plain one, and hostile ones that cost
pandas gigabytes or minutes (a cell at XFD1048576, rows at column XFD, a ZIP bomb, a styles bomb, entities...).

Each function returns the bytes of an .xlsx file; the parts are the minimum Excel, openpyxl and pandas accept.
"""

from __future__ import annotations

import io
import zipfile
from collections.abc import Iterable, Sequence
from xml.sax.saxutils import escape

MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
RELS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
CONTENT_TYPES = (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
    '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
    '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
    '<Default Extension="xml" ContentType="application/xml"/>'
    '<Override PartName="/xl/workbook.xml" '
    'ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>'
    '<Override PartName="/xl/worksheets/sheet1.xml" '
    'ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>'
    '<Override PartName="/xl/styles.xml" '
    'ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>'
    '<Override PartName="/xl/sharedStrings.xml" '
    'ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/>'
    "</Types>"
)
PACKAGE_RELS = (
    '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/'
    'relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/'
    'relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>'
)
WORKBOOK = (
    f'<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="{MAIN}" xmlns:r="{RELS}"><sheets>'
    '<sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets></workbook>'
)
WORKBOOK_RELS = (
    '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/'
    f'relationships"><Relationship Id="rId1" Type="{RELS}/worksheet" Target="worksheets/sheet1.xml"/>'
    f'<Relationship Id="rId2" Type="{RELS}/styles" Target="styles.xml"/>'
    f'<Relationship Id="rId3" Type="{RELS}/sharedStrings" Target="sharedStrings.xml"/></Relationships>'
)
STYLES = (
    f'<?xml version="1.0" encoding="UTF-8"?><styleSheet xmlns="{MAIN}"><fonts count="1"><font><sz val="11"/>'
    '<name val="Calibri"/></font></fonts><fills count="1"><fill><patternFill patternType="none"/></fill>'
    '</fills><borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>'
    '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>'
    '<cellXfs count="2">'
    '<xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>'
    '<xf numFmtId="14" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>'
    "</cellXfs></styleSheet>"
)
EMPTY_STRINGS = f'<?xml version="1.0" encoding="UTF-8"?><sst xmlns="{MAIN}" count="0" uniqueCount="0"></sst>'


def column_letters(index: int) -> str:
    """0 -> A, 16383 -> XFD."""
    letters = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        letters = chr(65 + rest) + letters
    return letters


def cell(column: int, row: int, value: object) -> str:
    ref = f"{column_letters(column)}{row}"
    if isinstance(value, bool):
        return f'<c r="{ref}" t="b"><v>{int(value)}</v></c>'
    if isinstance(value, (int, float)):
        return f'<c r="{ref}"><v>{value}</v></c>'
    return f'<c r="{ref}" t="inlineStr"><is><t>{escape(str(value))}</t></is></c>'


def sheet(rows: Iterable[str], prolog: str = "") -> str:
    return (
        f'<?xml version="1.0" encoding="UTF-8"?>{prolog}<worksheet xmlns="{MAIN}"><sheetData>'
        + "".join(rows)
        + "</sheetData></worksheet>"
    )


def table_rows(rows: Sequence[Sequence[object]], first: int = 1) -> list[str]:
    return [
        f'<row r="{r}">' + "".join(cell(c, r, v) for c, v in enumerate(values) if v is not None) + "</row>"
        for r, values in enumerate(rows, start=first)
    ]


def workbook(
    sheet_xml: str | bytes,
    *,
    styles: str | bytes = STYLES,
    strings: str | bytes = EMPTY_STRINGS,
    extra: dict[str, bytes] | None = None,
    level: int = 9,
) -> bytes:
    """An .xlsx holding `sheet_xml` as its only sheet."""
    parts: dict[str, str | bytes] = {
        "[Content_Types].xml": CONTENT_TYPES,
        "_rels/.rels": PACKAGE_RELS,
        "xl/workbook.xml": WORKBOOK,
        "xl/_rels/workbook.xml.rels": WORKBOOK_RELS,
        "xl/styles.xml": styles,
        "xl/sharedStrings.xml": strings,
        "xl/worksheets/sheet1.xml": sheet_xml,
        **(extra or {}),
    }
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=level) as book:
        for name, data in parts.items():
            book.writestr(name, data)
    return out.getvalue()


def table(rows: Sequence[Sequence[object]]) -> bytes:
    """A plain workbook of `rows` (the first is the header)."""
    return workbook(sheet(table_rows(rows)))


# ------------------------------------------------------------------ hostile workbooks


HEADER = ["index", "question", "answer", "prediction"]


def far_cell() -> bytes:
    """A normal header, one row, and one cell at XFD1048576 (pandas: a frame of 17 billion cells)."""
    rows = table_rows([HEADER, [0, "q", "A", "A"]])
    return workbook(sheet([*rows, '<row r="1048576"><c r="XFD1048576"><v>1</v></c></row>']))


def rows_at_xfd(count: int = 3000) -> bytes:
    """`count` rows each with a value at column XFD (pandas: 16,384 columns per row)."""
    rows = table_rows([HEADER])
    rows += [f'<row r="{r}"><c r="A{r}"><v>{r}</v></c><c r="XFD{r}"><v>1</v></c></row>' for r in range(2, count + 2)]
    return workbook(sheet(rows))


def zip_bomb(count: int = 1_000_000) -> bytes:
    """A million identical short rows, highly compressible (about 1 MB zipped)."""
    row = '<row><c t="inlineStr"><is><t>x</t></is></c><c><v>1</v></c></row>'
    body = f'<?xml version="1.0"?><worksheet xmlns="{MAIN}"><sheetData>' + row * count + "</sheetData></worksheet>"
    return workbook(body)


def styles_bomb(count: int = 2_000_000) -> bytes:
    """A plain table whose styles part declares millions of cell formats."""
    xfs = '<xf numFmtId="0" fontId="0" fillId="0" borderId="0"/>' * count
    dxfs = f'<dxfs count="{count}">' + "<dxf><font><b/></font></dxf>" * count + "</dxfs></styleSheet>"
    styles = STYLES.replace("</styleSheet>", dxfs).replace('<cellXfs count="2">', f'<cellXfs count="{count}">' + xfs)
    return workbook(sheet(table_rows([HEADER, [0, "q", "A", "A"]])), styles=styles)


def strings_bomb(count: int = 3_000_000) -> bytes:
    """A plain table with millions of (empty) shared strings."""
    strings = f'<?xml version="1.0"?><sst xmlns="{MAIN}">' + "<si><t></t></si>" * count + "</sst>"
    return workbook(sheet(table_rows([HEADER, [0, "q", "A", "A"]])), strings=strings)


def wide_header(columns: int = 16_384) -> bytes:
    """A header over every column Excel has, and a few rows."""
    header = [f"c{i}" for i in range(columns)]
    return workbook(sheet(table_rows([header, [1] * 4, [2] * 4])))


def many_rows(count: int, columns: int = 4) -> bytes:
    """`count` distinct small rows (row numbers and values differ, so it compresses like a real file)."""
    rows = table_rows([HEADER[:columns]])
    rows += [
        f'<row r="{r}">'
        + "".join(f'<c r="{column_letters(c)}{r}"><v>{r * 7 + c}</v></c>' for c in range(columns))
        + "</row>"
        for r in range(2, count + 2)
    ]
    return workbook(sheet(rows))


def billion_laughs() -> bytes:
    prolog = (
        '<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">'
        '<!ENTITY lol2 "&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;">]>'
    )
    return workbook(sheet(['<row r="1"><c r="A1" t="inlineStr"><is><t>&lol2;</t></is></c></row>'], prolog))


def external_entity(target: str = "file:///etc/passwd") -> bytes:
    prolog = f'<!DOCTYPE x [<!ENTITY ext SYSTEM "{target}">]>'
    return workbook(sheet(['<row r="1"><c r="A1" t="inlineStr"><is><t>&ext;</t></is></c></row>'], prolog))


def one_huge_cell(megabytes: int = 600) -> bytes:
    """One inline string of `megabytes` MB (past the inflated-bytes limit), compressed to a few hundred KB."""
    text = "x" * (megabytes * 1024 * 1024)
    huge = f'<row r="2"><c r="A2" t="inlineStr"><is><t>{text}</t></is></c></row>'
    return workbook(sheet([*table_rows([HEADER]), huge]), level=9)


def lying_size() -> bytes:
    """A ZIP whose central directory understates the sheet's inflated size (the read must still stop)."""
    data = bytearray(many_rows(2000))
    name = b"xl/worksheets/sheet1.xml"
    at = data.find(name, data.find(b"PK\x01\x02"))
    while at != -1 and data[at - 46 : at - 42] != b"PK\x01\x02":
        at = data.find(name, at + 1)
    entry = at - 46
    data[entry + 24 : entry + 28] = (100).to_bytes(4, "little")  # uncompressed size: 100 bytes
    return bytes(data)


def many_members(count: int = 20_000) -> bytes:
    extra = {f"junk/{i}.bin": b"" for i in range(count)}
    return workbook(sheet(table_rows([HEADER, [0, "q", "A", "A"]])), extra=extra, level=1)


def bad_shared_index() -> bytes:
    return workbook(sheet(['<row r="1"><c r="A1" t="s"><v>999999</v></c></row>']))


def deep_nesting(depth: int = 200_000) -> bytes:
    return workbook(sheet(['<row r="1">' + "<x>" * depth + "</x>" * depth + "</row>"]))


def not_xml_sheet() -> bytes:
    return workbook(b"\x00\x01 this is not xml")


def vlmevalkit(rows: int = 2700, seed: int = 0) -> bytes:
    """A Video-MME-shaped VLMEvalKit prediction file written by openpyxl through pandas (shared strings, styles),
    as VLMEvalKit writes it."""
    import random

    import pandas as pd

    rng = random.Random(seed)
    records = []
    for index in range(rows):
        records.append(
            {
                "index": index,
                "video": f"{index // 3:03d}",
                "duration": "short",
                "domain": "Knowledge",
                "sub_category": "Humanity & History",
                "task_type": "Counting Problem",
                "question": f"How many objects appear in scene {index}?",
                "candidates": str([f"{letter}. {rng.randint(0, 99)}" for letter in "ABCD"]),
                "answer": rng.choice("ABCD"),
                "prediction": rng.choice(["A", "B", "C", "D", "The answer is C."]),
                "video_path": f"./video/{index // 3:03d}.mp4",
                "hit": rng.randint(0, 1),
            }
        )
    out = io.BytesIO()
    pd.DataFrame(records).to_excel(out, index=False, engine="openpyxl")
    return out.getvalue()
