"""A workbook's first sheet as records, streamed from the ZIP under limits: nothing is built that a limit forbids.

A 2 KB .xlsx can describe a cell at XFD1048576 (a dense frame of 17 billion cells), a 1 MB one a million rows, a
styles part of millions of formats. pandas and openpyxl build all of it before anyone can look, so this reader
walks the XML itself (expat, one pass, no tree): the sheet's parts are inflated in bounded chunks and counted, and
reading stops with one clear line at the first limit passed (`XlsxLimits`): rows, columns, cells of the table,
inflated bytes, shared strings and cell formats. Cells are kept sparse: a cell far to the right or far below costs
what one cell costs. A document type declaration is refused outright, so entity expansion ("billion laughs") and
external entities never happen.

Values follow openpyxl's reading, which the pandas path used before: shared and inline strings as text, numbers
as int (no "." or exponent) or float, booleans as True/False, error cells as their text ("#N/A"), date-formatted
numbers as ISO text. Unlike pandas, "NA" or "None" in a cell stays that text (a model may answer "None").
"""

from __future__ import annotations

import io
import posixpath
import re
import zipfile
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, NoReturn
from xml.parsers import expat

from mathreel.core.errors import InputError

_REL_NS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
_OFFICE_DOCUMENT = "/officeDocument"
_CHUNK = 1 << 16  # bytes inflated per read: a limit is checked at least this often
_MAX_EXCEL_ROW = 1_048_576
_MAX_EXCEL_COLUMN = 16_384  # XFD
_COLUMN_LETTERS = re.compile(r"[A-Z]{1,3}")
_DIGITS = "0123456789"
# Built-in number formats that show a date or time (ECMA-376 part 1, 18.8.30).
_DATE_FORMAT_IDS = frozenset({14, 15, 16, 17, 18, 19, 20, 21, 22, 45, 46, 47})
# openpyxl's test (styles/numbers.py `is_date_format`): in the first section of a custom format, with quoted text and
# bracketed locales and colours gone, a date/time letter not escaped by "_" or "\". Elapsed times ([h]:mm) stay
# numbers here (openpyxl makes them timedeltas).
_FORMAT_NOISE = re.compile(r'".*?"|\[(?!hh?\]|mm?\]|ss?\])[^\]]*\]')
_DATE_LETTERS = re.compile(r"(?<![_\\])[dmhysDMHYS]")
_ELAPSED = re.compile(r"\[(?:hh?|mm?|ss?)\]", re.IGNORECASE)
_EXCEL_EPOCH = datetime(1899, 12, 30)


@dataclass(frozen=True)
class XlsxLimits:
    """What one workbook may cost. Each default is far beyond any result file (VLMEvalKit's largest benchmarks
    write tens of thousands of rows of about 15 columns); a file past one is refused with the limit named, and
    CSV or JSON Lines, which have no such limits, are the way to bring a larger table."""

    rows: int = 200_000  # non-blank rows, the header included
    columns: int = 512  # distinct columns holding a value
    cells: int = 1_000_000  # cells in the sheet, empty ones too, and the table handed on (data rows x columns)
    elements: int = 4_000_000  # XML elements in the sheet (a cell is two to four)
    inflated_bytes: int = 512 * 1024 * 1024  # XML inflated from the workbook, all parts together
    shared_strings: int = 1_000_000
    cell_formats: int = 65_536  # Excel's own limit is 64,000
    styles_bytes: int = 16 * 1024 * 1024  # the styles part (formats only matter for dates)
    members: int = 10_000  # entries in the ZIP's directory


DEFAULT_LIMITS = XlsxLimits()


class _Refused(Exception):
    """Raised inside an expat handler; carries the InputError out of the parser."""

    def __init__(self, error: InputError) -> None:
        super().__init__(str(error))
        self.error = error


def xlsx_records(data: bytes, source: str, limits: XlsxLimits = DEFAULT_LIMITS) -> list[dict[str, Any]]:
    """The rows of the workbook's first sheet as records: the first non-blank row names the columns, each later
    non-blank row is a record keyed by those names (a blank header is "Unnamed: <column index>", a repeated one gets
    ".1", ".2" as pandas names them), labelled `__line__` with its spreadsheet row number."""
    book = _Workbook(data, source, limits)
    strings = book.shared_strings()
    dates = book.date_formats()
    header: dict[int, str] | None = None
    records: list[dict[str, Any]] = []
    for number, cells in book.sheet_rows(strings, dates):
        if header is None:
            header = _column_names(cells)
            continue
        for column in cells.keys() - header.keys():
            header[column] = f"Unnamed: {column}"
        book.check_cells(len(records) + 1, len(header), number)
        record: dict[str, Any] = dict.fromkeys(header.values())
        for column, value in cells.items():
            record[header[column]] = value
        record["__line__"] = number
        records.append(record)
    if header is None:
        raise InputError(source, "the workbook's first sheet is empty")
    if not records:
        raise InputError(source, "the workbook's first sheet has a header but no rows")
    return records


def _column_names(cells: dict[int, Any]) -> dict[int, str]:
    """Column index -> name, from the header row."""
    names: dict[int, str] = {}
    seen: dict[str, int] = {}
    for column in range(max(cells) + 1) if cells else ():
        value = cells.get(column)
        name = f"Unnamed: {column}" if value is None else str(value)
        if name in seen:
            seen[name] += 1
            name = f"{name}.{seen[name]}"
        seen.setdefault(name, 0)
        names[column] = name
    return names


class _Workbook:
    """The ZIP and its parts, each read once, in bounded chunks, with every byte counted against the limits."""

    def __init__(self, data: bytes, source: str, limits: XlsxLimits) -> None:
        self.source = source
        self.limits = limits
        self.inflated = 0
        members = zip_member_count(data)
        if members is None:
            raise self.error("unreadable .xlsx workbook: no ZIP directory at its end (is the file complete?)")
        if members > limits.members:
            raise self.error(f"the ZIP holds {members:,} entries, more than a workbook's {limits.members:,}")
        try:
            self.zip = zipfile.ZipFile(io.BytesIO(data))
        except (zipfile.BadZipFile, OSError, ValueError, NotImplementedError) as error:
            raise self.error(f"unreadable .xlsx workbook ({error})") from None
        self.names = set(self.zip.namelist())
        self.book_part = self._office_document()
        self.book_rels = self._relationships(self.book_part)

    def error(self, problem: str, record: str | None = None) -> InputError:
        return InputError(self.source, problem, record)

    # -- parts ---------------------------------------------------------------------------------------------------

    def chunks(self, name: str, cap: int | None = None) -> Iterator[bytes]:
        """The inflated bytes of one part, counted against the workbook's total (and `cap` for this part); the
        sizes the ZIP declares are checked first, the bytes really inflated as they come."""
        try:
            info = self.zip.getinfo(name)
        except KeyError:
            raise self.error(f"the workbook has no part {name!r}") from None
        self._check_size(name, info.file_size, self.inflated + info.file_size, cap)
        own = 0
        try:
            with self.zip.open(info) as member:
                while chunk := member.read(_CHUNK):
                    own += len(chunk)
                    self.inflated += len(chunk)
                    self._check_size(name, own, self.inflated, cap)
                    yield chunk
        except (zipfile.BadZipFile, zlib.error, OSError, EOFError, NotImplementedError, RuntimeError) as error:
            # CRC or size mismatches, damaged deflate data, an unknown compression method, an encrypted part
            raise self.error(f"damaged or encrypted part {name!r} in the workbook ({error})") from None

    def _check_size(self, name: str, own: int, total: int, cap: int | None) -> None:
        if cap is not None and own > cap:
            raise self.error(
                f"the part {name} inflates to more than {cap / 2**20:.0f} MB; a result workbook's "
                "is far smaller (save the sheet as CSV)"
            )
        if total > self.limits.inflated_bytes:
            raise self.error(
                f"the workbook inflates to more than {self.limits.inflated_bytes / 2**20:.0f} MB of "
                "XML (a ZIP bomb, or a table too large for .xlsx here: save it as CSV or JSON Lines)"
            )

    def feed(
        self,
        name: str,
        start: Callable[[str, dict[str, str]], None] | None = None,
        end: Callable[[str], None] | None = None,
        text: Callable[[str], None] | None = None,
        cap: int | None = None,
    ) -> Iterator[None]:
        """Run expat over one part with the given handlers, yielding after each chunk so a caller can hand on what
        the handlers collected; a document type declaration is refused. Tags reach the handlers as
        "<namespace> <name>" (`_local` takes the name), so a writer's namespace prefix does not matter."""
        parser = expat.ParserCreate(namespace_separator=" ")
        parser.SetParamEntityParsing(expat.XML_PARAM_ENTITY_PARSING_NEVER)

        def doctype(*_: Any) -> NoReturn:
            raise _Refused(self.error(f"the part {name} declares a document type (entities are refused)"))

        parser.StartDoctypeDeclHandler = doctype
        parser.EntityDeclHandler = doctype
        parser.ExternalEntityRefHandler = doctype
        parser.buffer_text = True
        parser.buffer_size = _CHUNK
        parser.StartElementHandler = start
        parser.EndElementHandler = end
        parser.CharacterDataHandler = text
        try:
            for chunk in self.chunks(name, cap):
                parser.Parse(chunk, False)
                yield
            parser.Parse(b"", True)
        except _Refused as refused:
            raise refused.error from None
        except expat.ExpatError as error:
            raise self.error(
                f"the part {name} is not well-formed XML ({expat.errors.messages[error.code]}, line {error.lineno})"
            ) from None

    def parse(
        self,
        name: str,
        start: Callable[[str, dict[str, str]], None],
        end: Callable[[str], None] | None = None,
        text: Callable[[str], None] | None = None,
        cap: int | None = None,
    ) -> None:
        """`feed` to the end, for the parts read whole before the sheet; their elements count against the same
        limit as the sheet's, so a part of millions of tiny elements stops as early."""
        elements = 0

        def counted(tag: str, attrs: dict[str, str]) -> None:
            nonlocal elements
            elements += 1
            if elements > self.limits.elements:
                raise _Refused(self.error(f"more than {self.limits.elements:,} XML elements in {name}"))
            start(tag, attrs)

        for _ in self.feed(name, counted, end, text, cap):
            pass

    def _office_document(self) -> str:
        """The workbook part: named by the package relationships, else the usual xl/workbook.xml."""
        for _, target, kind in self._relationship_list(""):
            if kind.endswith(_OFFICE_DOCUMENT):
                return target
        if "xl/workbook.xml" in self.names:
            return "xl/workbook.xml"
        raise self.error("no workbook inside the ZIP (is this an .xlsx file?)")

    def _relationships(self, part: str) -> dict[str, str]:
        """Relationship id -> target part, for the relationships of `part`."""
        return {rid: target for rid, target, _ in self._relationship_list(part) if rid}

    def _relationship_list(self, part: str) -> list[tuple[str, str, str]]:
        """(id, target part, type) of each relationship of `part` ("" for the package itself)."""
        folder, _, base = part.rpartition("/")
        rels = f"{folder}/_rels/{base}.rels" if folder else f"_rels/{base}.rels" if base else "_rels/.rels"
        found: list[tuple[str, str, str]] = []

        def start(tag: str, attrs: dict[str, str]) -> None:
            if _local(tag) == "Relationship" and attrs.get("Target"):
                found.append((attrs.get("Id", ""), _resolve(folder, attrs["Target"]), attrs.get("Type", "")))
                if len(found) > self.limits.members:
                    raise _Refused(self.error(f"the part {rels} names more relationships than the ZIP has entries"))

        if rels in self.names:
            self.parse(rels, start, cap=1 << 20)
        return found

    def _first_sheet(self) -> str:
        """The part of the workbook's first sheet (in tab order)."""
        first: list[str] = []

        def start(tag: str, attrs: dict[str, str]) -> None:
            if _local(tag) == "sheet" and not first:
                first.append(attrs.get(f"{_REL_NS} id", ""))

        self.parse(self.book_part, start, cap=16 << 20)
        part = self.book_rels.get(first[0]) if first else None
        if part is None:
            part = "xl/worksheets/sheet1.xml" if "xl/worksheets/sheet1.xml" in self.names else None
        if part is None or part not in self.names:
            raise self.error("the workbook names no sheet that the ZIP holds")
        return part

    def _part_of_type(self, suffix: str) -> str | None:
        for part in self.book_rels.values():
            if part.rsplit("/", 1)[-1].lower().startswith(suffix) and part in self.names:
                return part
        return None

    # -- shared strings and formats ------------------------------------------------------------------------------

    def shared_strings(self) -> list[str]:
        """The shared string table; rich text runs joined, phonetic guides (rPh) left out as openpyxl does."""
        part = self._part_of_type("sharedstrings")
        strings: list[str] = []
        if part is None:
            return strings
        pieces: list[str] = []
        state = {"in_t": False, "phonetic": 0}

        def start(tag: str, attrs: dict[str, str]) -> None:
            tag = _local(tag)
            if tag == "t":
                state["in_t"] = True
            elif tag == "rPh":
                state["phonetic"] += 1

        def end(tag: str) -> None:
            tag = _local(tag)
            if tag == "t":
                state["in_t"] = False
            elif tag == "rPh":
                state["phonetic"] -= 1
            elif tag == "si":
                strings.append("".join(pieces))
                pieces.clear()
                if len(strings) > self.limits.shared_strings:
                    raise _Refused(self.error(f"more than {self.limits.shared_strings:,} shared strings"))

        def text(data: str) -> None:
            if state["in_t"] and not state["phonetic"]:
                pieces.append(data)

        self.parse(part, start, end, text)
        return strings

    def date_formats(self) -> frozenset[int]:
        """Indexes of the cell formats (cellXfs) that show numbers as dates; the styles part is read only this far."""
        part = self._part_of_type("styles")
        if part is None:
            return frozenset()
        custom: dict[int, bool] = {}
        formats: list[int] = []
        depth = {"cellXfs": 0}

        def start(tag: str, attrs: dict[str, str]) -> None:
            tag = _local(tag)
            if tag == "numFmt":
                custom[_int(attrs.get("numFmtId"))] = _is_date_format(attrs.get("formatCode", ""))
                if len(custom) > self.limits.cell_formats:
                    raise _Refused(self.error(f"more than {self.limits.cell_formats:,} number formats in {part}"))
            elif tag == "cellXfs":
                depth["cellXfs"] += 1
            elif tag == "xf" and depth["cellXfs"]:
                formats.append(_int(attrs.get("numFmtId")))
                if len(formats) > self.limits.cell_formats:
                    raise _Refused(self.error(f"more than {self.limits.cell_formats:,} cell formats in {part}"))

        def end(tag: str) -> None:
            if _local(tag) == "cellXfs":
                depth["cellXfs"] -= 1

        self.parse(part, start, end, cap=self.limits.styles_bytes)
        return frozenset(
            index for index, number in enumerate(formats) if custom.get(number, number in _DATE_FORMAT_IDS)
        )

    # -- the sheet -----------------------------------------------------------------------------------------------

    def sheet_rows(self, strings: list[str], dates: frozenset[int]) -> Iterator[tuple[int, dict[int, Any]]]:
        """(row number, {column index: value}) for each row holding a value, in document order, handed on chunk by
        chunk while the sheet is still inflating."""
        rows: list[tuple[int, dict[int, Any]]] = []
        reader = _SheetReader(self, strings, dates, rows.append)
        for _ in self.feed(self._first_sheet(), reader.start, reader.end, reader.text):
            yield from rows
            rows.clear()
        yield from rows

    def check_cells(self, rows: int, columns: int, number: int) -> None:
        if rows * columns > self.limits.cells:
            raise self.error(
                f"the sheet's table passes {self.limits.cells:,} cells ({rows:,} rows x {columns:,} "
                "columns); save it as CSV or JSON Lines",
                f"row {number}",
            )


class _SheetReader:
    """expat handlers for a worksheet: collects each <row>'s cells and hands the row on at </row>."""

    def __init__(
        self,
        book: _Workbook,
        strings: list[str],
        dates: frozenset[int],
        emit: Callable[[tuple[int, dict[int, Any]]], None],
    ) -> None:
        self.book, self.strings, self.dates, self.emit = book, strings, dates, emit
        self.row_number = 0
        self.rows = 0
        self.columns: set[int] = set()
        self.cells: dict[int, Any] = {}
        self.column = -1
        self.cell_type = "n"
        self.cell_style = 0
        self.collect: list[str] | None = None  # text of <v>, or of <t> inside <is>
        self.value: list[str] | None = None
        self.inline: list[str] | None = None
        self.names = _LocalNames()
        self.elements = 0
        self.cell_count = 0
        self.column_of = _ColumnIndexes()
        self.row_digits = ""

    def start(self, tag: str, attrs: dict[str, str]) -> None:
        name = self.names[tag]
        self.elements += 1
        if self.elements > self.book.limits.elements:
            raise _Refused(
                self.book.error(
                    f"more than {self.book.limits.elements:,} XML elements in the sheet", f"row {self.row_number}"
                )
            )
        if name == "c":
            self._start_cell(attrs)
        elif name == "v" and self.value is None:
            self.value = self.collect = []
        elif name == "is":
            self.inline = []
        elif name == "t" and self.inline is not None:
            self.collect = self.inline
        elif name == "row":
            self._start_row(attrs)

    def end(self, tag: str) -> None:
        name = self.names[tag]
        if name in ("v", "t"):
            self.collect = None
        elif name == "c":
            self._end_cell()
        elif name == "row" and self.cells:
            self.rows += 1
            if self.rows > self.book.limits.rows:
                raise _Refused(
                    self.book.error(
                        f"more than {self.book.limits.rows:,} rows; save the sheet as CSV or JSON Lines",
                        f"row {self.row_number}",
                    )
                )
            self.emit((self.row_number, self.cells))
            self.cells = {}

    def text(self, data: str) -> None:
        if self.collect is not None:
            self.collect.append(data)

    def _start_row(self, attrs: dict[str, str]) -> None:
        given = attrs.get("r")
        if given is None:
            self.row_number += 1
        else:
            number = _int(given, -1)
            if not 1 <= number <= _MAX_EXCEL_ROW:
                raise _Refused(self.book.error(f"row number {given[:20]!r} is not a spreadsheet row"))
            self.row_number = number
        self.row_digits = str(self.row_number)
        self.column = -1
        self.cells = {}

    def _start_cell(self, attrs: dict[str, str]) -> None:
        self.cell_count += 1
        if self.cell_count > self.book.limits.cells:
            raise _Refused(
                self.book.error(
                    f"more than {self.book.limits.cells:,} cells in the sheet; save it as CSV or JSON Lines",
                    f"row {self.row_number}",
                )
            )
        ref = attrs.get("r")
        if ref is None:
            self.column += 1
            if self.column >= _MAX_EXCEL_COLUMN:
                raise _Refused(
                    self.book.error(
                        f"row {self.row_number} has more cells than a sheet has columns", f"row {self.row_number}"
                    )
                )
        else:
            letters = ref.rstrip(_DIGITS)
            column = self.column_of[letters]
            if column < 0 or ref[len(letters) :] != self.row_digits:
                raise _Refused(
                    self.book.error(
                        f"cell reference {ref[:20]!r} is not a cell of row {self.row_number}", f"row {self.row_number}"
                    )
                )
            self.column = column
        self.cell_type = attrs.get("t", "n")
        self.cell_style = _int(attrs.get("s"), 0)
        self.value = self.inline = self.collect = None

    def _end_cell(self) -> None:
        raw = "".join(self.value) if self.value is not None else None
        if self.cell_type == "inlineStr":
            value: Any = "".join(self.inline) if self.inline is not None else None
        else:
            value = None if raw is None or raw == "" else self._typed(raw)
        self.value = self.inline = self.collect = None
        if value is None or value == "":
            return
        if self.column not in self.columns:
            self.columns.add(self.column)
            if len(self.columns) > self.book.limits.columns:
                raise _Refused(
                    self.book.error(
                        f"values in more than {self.book.limits.columns:,} columns", f"row {self.row_number}"
                    )
                )
        self.cells[self.column] = value

    def _typed(self, raw: str) -> Any:
        kind = self.cell_type
        where = f"row {self.row_number}"
        if kind == "s":
            index = _int(raw, -1)
            if not 0 <= index < len(self.strings):
                raise _Refused(
                    self.book.error(f"a cell names shared string {raw[:20]!r}, which the workbook does not have", where)
                )
            return self.strings[index]
        if kind in ("str", "e", "d"):  # formula text, an error such as #N/A, an ISO date
            return raw
        if kind == "b":
            return raw.strip() in ("1", "true")
        try:
            number: int | float = int(raw) if not any(c in raw for c in ".eE") else float(raw)
        except ValueError:
            raise _Refused(self.book.error(f"a numeric cell holds {raw[:20]!r}", where)) from None
        if self.cell_style in self.dates:
            return _excel_date(number)
        return number


class _LocalNames(dict):
    """ "<namespace> <name>" -> name, computed once per tag (the sheet's handlers run per cell)."""

    def __missing__(self, tag: str) -> str:
        name = self[tag] = tag.rpartition(" ")[2]
        return name


class _ColumnIndexes(dict):
    """Column letters -> index (A is 0), -1 for letters that name no column; computed once per column."""

    def __missing__(self, letters: str) -> int:
        index = _column_index(letters) if _COLUMN_LETTERS.fullmatch(letters) else -1
        index = self[letters] = index if index < _MAX_EXCEL_COLUMN else -1
        return index


def _local(tag: str) -> str:
    return tag.rpartition(" ")[2]


def _int(text: str | None, default: int = 0) -> int:
    try:
        return int(text) if text is not None and len(text) <= 12 else default
    except ValueError:
        return default


def _resolve(folder: str, target: str) -> str:
    """A relationship target as a part name inside the ZIP."""
    if target.startswith("/"):
        return posixpath.normpath(target.lstrip("/"))
    return posixpath.normpath(posixpath.join(folder, target)) if folder else posixpath.normpath(target)


def _column_index(letters: str) -> int:
    """0 for A, 25 for Z, 26 for AA."""
    index = 0
    for letter in letters:
        index = index * 26 + ord(letter) - 64
    return index - 1


def _is_date_format(code: str) -> bool:
    first = code.split(";")[0]
    return not _ELAPSED.search(first) and bool(_DATE_LETTERS.search(_FORMAT_NOISE.sub("", first)))


def _excel_date(serial: float) -> Any:
    """A date-formatted number (days since 1899-12-30) as ISO text; out-of-range serials stay numbers. Serials
    below 60 are a day late from 1900-03-01 back (Excel counts a 29 February 1900), as openpyxl corrects them."""
    if not 0 <= serial < 2_958_466:  # 9999-12-31
        return serial
    if 0 < serial < 60:
        serial += 1
    moment = _EXCEL_EPOCH + timedelta(milliseconds=round(serial * 86_400_000))  # a float's noise rounded off
    return moment.isoformat(sep=" ") if moment.time() != datetime.min.time() else moment.date().isoformat()


def zip_member_count(data: bytes) -> int | None:
    """The number of entries a ZIP's end-of-central-directory record declares (ZIP64 too), read without parsing
    the directory itself; None when no such record is found."""
    tail = data[-(65_535 + 22) :]
    at = tail.rfind(b"PK\x05\x06")
    if at < 0 or len(tail) - at < 22:
        return None
    count = int.from_bytes(tail[at + 10 : at + 12], "little")
    if count != 0xFFFF:
        return count
    locator = tail.rfind(b"PK\x06\x07", 0, at)
    if locator < 0:
        return count
    offset = int.from_bytes(tail[locator + 8 : locator + 16], "little")
    record = data[offset : offset + 56]
    if record[:4] != b"PK\x06\x06" or len(record) < 40:
        return None
    return int.from_bytes(record[32:40], "little")


def xlsx_inflated_size(data: bytes) -> tuple[int, int] | None:
    """(declared inflated bytes of the parts a read inflates, number of ZIP entries) from the central directory,
    for a cost estimate; None when the ZIP cannot be opened or has too many entries to list cheaply."""
    members = zip_member_count(data)
    if members is None or members > DEFAULT_LIMITS.members:
        return None
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as book:
            infos = book.infolist()
    except (zipfile.BadZipFile, OSError, ValueError, NotImplementedError):
        return None
    wanted = [i.file_size for i in infos if i.filename.endswith(".xml") or i.filename.endswith(".rels")]
    return sum(wanted), members
