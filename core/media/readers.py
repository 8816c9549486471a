"""Which decoder opens a video: under auto the faster one that reads the file (PyAV, else decord where installed).

Why two: decord (the reference harness's decoder) has wheels only for Linux x86-64 and Windows and no release since
2021; PyAV ships FFmpeg in wheels for every platform. Both number frames the same way and, on the same FFmpeg
colour conversion, return the same pixels. MATHREEL_FRAME_READER=decord|pyav|auto forces one (default auto).
Under auto a reader that cannot open the file, or whose first frame is not an RGB image (decord on videos a few
pixels wide or with rotation metadata), gives way to the next.
"""

from __future__ import annotations

import os
from pathlib import Path

from mathreel.core.errors import InputError
from mathreel.core.media.reader_base import BadFrameShape, FrameReader

READER_ENV = "MATHREEL_FRAME_READER"
CHOICES = ("auto", "decord", "pyav")
# auto's order where both are installed: the faster first. Both give the same frames (tests/test_frame_readers.py), and
# PyAV's seek-and-decode used less CPU than decord on every file of bench/bench_frames.py (close to the floor);
# decord then reads the files PyAV cannot open or decode.
AUTO_ORDER = ("pyav", "decord")


def reader_choice(choice: str | None = None) -> str:
    """The reader asked for: `choice`, else $MATHREEL_FRAME_READER, else auto (InputError if unknown)."""
    value = (choice if choice is not None else os.environ.get(READER_ENV) or "auto").strip().lower()
    if value not in CHOICES:
        raise InputError(READER_ENV, f"frame reader must be one of {', '.join(CHOICES)}, got {value!r}")
    return value


def candidate_readers(choice: str | None = None) -> list[str]:
    """Reader names in the order they would be tried (the cache looks for an entry under each, in this order)."""
    from mathreel.core.media.decord_reader import decord_installed

    value = reader_choice(choice)
    if value != "auto":
        return [value]
    return [*AUTO_ORDER] if decord_installed() else ["pyav"]


def open_reader(path: str | Path, choice: str | None = None, decoder_threads: int = 0) -> FrameReader:
    """Open `path` with the chosen reader; under auto, the next reader takes over when one cannot read the file."""
    path = Path(path)
    if not path.is_file():
        raise InputError(str(path), "video file not found")
    names = candidate_readers(choice)
    for name in names[:-1]:
        try:
            return _open(name, path, decoder_threads)
        except InputError:
            continue  # the next reader may read it; if none can, the last one's error is the one shown
    return _open(names[-1], path, decoder_threads)


def _open(name: str, path: Path, decoder_threads: int) -> FrameReader:
    if name == "pyav":
        from mathreel.core.media.pyav_reader import PyAVReader

        return PyAVReader(path, decoder_threads=decoder_threads)
    from mathreel.core.media.decord_reader import DecordReader, decord_installed

    if not decord_installed():
        raise InputError(READER_ENV, "decord is not installed here; use pyav or auto")
    reader = DecordReader(path, decoder_threads)
    try:
        reader.probe()
    except BadFrameShape:
        reader.close()
        raise
    return reader
