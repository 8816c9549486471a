"""The H.264 writer: decord must read back what we wrote (count, timing, pixels), byte-identically each run."""

from __future__ import annotations

import numpy as np
import pytest

from mathreel.core.errors import InputError
from mathreel.core.media.writer import write_h264


def _grey_frames(count: int, height: int = 48, width: int = 64) -> list[np.ndarray]:
    """Frames whose grey level is 8 * index, so a decoded frame says which one it is."""
    return [np.full((height, width, 3), 8 * i, np.uint8) for i in range(count)]


def test_decord_reads_back_frame_count_rate_and_pixels(tmp_path):
    import decord

    path = write_h264(tmp_path / "clip.mp4", _grey_frames(30), 25, gop=10)
    reader = decord.VideoReader(str(path))
    assert len(reader) == 30
    assert reader.get_avg_fps() == pytest.approx(25)
    assert list(reader.get_key_indices()) == [0, 10, 20]
    levels = reader.get_batch([0, 7, 29]).asnumpy().mean(axis=(1, 2, 3))
    assert levels == pytest.approx([0, 56, 232], abs=3)
    assert reader.get_frame_timestamp([29])[0, 0] == pytest.approx(29 / 25)


def test_output_is_deterministic(tmp_path):
    first = write_h264(tmp_path / "a.mp4", _grey_frames(12), 24)
    second = write_h264(tmp_path / "b.mp4", _grey_frames(12), 24)
    assert first.read_bytes() == second.read_bytes()


def test_variable_frame_rate_keeps_each_frame_time(tmp_path):
    import decord

    times = [0.0, 0.1, 0.15, 0.5, 0.54, 1.3]
    path = write_h264(tmp_path / "vfr.mp4", _grey_frames(6), 25, pts_seconds=times)
    reader = decord.VideoReader(str(path))
    assert len(reader) == 6
    assert reader.get_frame_timestamp(list(range(6)))[:, 0] == pytest.approx(times, abs=1e-3)


@pytest.mark.parametrize(
    ("frames", "kwargs", "problem"),
    [
        (_grey_frames(2, 48, 63), {}, "even width and height"),
        ([np.zeros((48, 64), np.uint8)], {}, "must be uint8 (H, W, 3)"),
        ([], {}, "no frames"),
        (_grey_frames(3), {"pts_seconds": [0.0, 0.2]}, "more frames than"),
        (_grey_frames(2), {"pts_seconds": [0.0, 0.1, 0.2]}, "3 pts_seconds for 2 frames"),
        (_grey_frames(2), {"pts_seconds": [0.1, 0.1]}, "increase strictly"),
    ],
)
def test_bad_frames_raise_input_error_naming_the_file(tmp_path, frames, kwargs, problem):
    with pytest.raises(InputError, match=r"bad\.mp4") as caught:
        write_h264(tmp_path / "bad.mp4", frames, 25, **kwargs)
    assert problem in caught.value.problem
