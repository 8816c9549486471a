"""Where sampled frames sit: the uniform rule (lmms-eval), Video-MME-v2's len/(n+1) midpoints and its fixed-fps rule
(with MathReel's cap), on the reference's worked examples and on a real H.264 video decoded for real."""

from __future__ import annotations

import numpy as np
import pytest

from mathreel.core.errors import InputError
from mathreel.core.media.frame_cache import cache_key
from mathreel.core.media.frames import sample_frames
from mathreel.core.media.sampling import UNIFORM, Sampling, capped
from mathreel.core.media.writer import write_h264


def test_midpoints_never_take_the_first_or_last_frame():
    assert Sampling("midpoints").indices(1000, 30.0, 4) == [200, 400, 600, 800]
    assert Sampling("midpoints").indices(10, 30.0, 3) == [2, 5, 7]


def test_the_fps_rule_starts_at_frame_zero_and_counts_whole_periods():
    assert Sampling("fps", 1.0).indices(95, 30.0, -1) == [0, 30, 60]  # 3.17 s at 1 fps: 3 frames
    assert Sampling("fps", 2.0).indices(100, 25.0, -1) == [0, 12, 25, 37, 50, 62, 75, 87]


def test_the_cap_keeps_frames_spread_over_the_whole_video():
    taken = Sampling("fps", 1.0).indices(3000, 10.0, 10)  # 300 frames at 1 fps, capped at 10
    assert taken == [0, 300, 600, 900, 1200, 1500, 1800, 2100, 2400, 2700]
    assert capped([1, 2, 3], 5) == [1, 2, 3] and capped([1, 2, 3], -1) == [1, 2, 3]
    assert Sampling("fps", 1.0).describe(10) == "1 frame per second (at most 10)"


def test_uniform_is_numpy_linspace():
    assert UNIFORM.indices(100, 30.0, 5) == np.linspace(0, 99, 5, dtype=int).tolist()
    assert Sampling("midpoints").indices(5, 30.0, -1) == [0, 1, 2, 3, 4]


@pytest.mark.parametrize(("rule", "fps"), [("nearest", None), ("fps", None), ("uniform", 2.0), ("fps", -1.0)])
def test_a_bad_rule_is_refused(rule, fps):
    with pytest.raises(ValueError):
        Sampling(rule, fps)


def test_only_non_uniform_rules_change_the_cache_key():
    ident = {"video": "/v.mp4", "size": 1, "mtime_ns": 2}
    assert cache_key(ident, 8, None, "pyav", UNIFORM.cache_fields()) == cache_key(ident, 8, None, "pyav")
    keys = {
        cache_key(ident, 8, None, "pyav", s.cache_fields())
        for s in (UNIFORM, Sampling("midpoints"), Sampling("fps", 1.0), Sampling("fps", 2.0))
    }
    assert len(keys) == 4


@pytest.fixture(scope="module")
def video(tmp_path_factory):
    path = tmp_path_factory.mktemp("sampling") / "clip.mp4"
    frames = [np.full((48, 64, 3), 12 * i, dtype=np.uint8) for i in range(20)]  # brightness says which frame
    return write_h264(path, frames, fps=10, crf=0)


def test_a_real_video_is_sampled_by_each_rule(video, tmp_path):
    midpoints = sample_frames(video, 4, cache_dir=tmp_path, sampling=Sampling("midpoints"))
    assert midpoints.indices == (4, 8, 12, 16)
    brightness = [int(frame.mean()) for frame in midpoints.arrays()]
    assert all(abs(b - 12 * i) <= 3 for b, i in zip(brightness, midpoints.indices, strict=True))
    by_rate = sample_frames(video, -1, cache_dir=tmp_path, sampling=Sampling("fps", 2.0))
    assert by_rate.indices == (0, 5, 10, 15)
    uniform = sample_frames(video, 4, cache_dir=tmp_path)
    assert uniform.indices == (0, 6, 12, 19) and uniform.paths[0].parent != midpoints.paths[0].parent


def test_a_rate_that_takes_no_frame_is_one_clear_error(video, tmp_path):
    with pytest.raises(InputError, match=r"takes no frame of a 2\.00 s video"):
        sample_frames(video, -1, cache_dir=tmp_path, sampling=Sampling("fps", 0.1))
