"""Questions from the real dataset layouts (VideoMathQA, Video-MME, MathVerse) and from the embedded demo set.

`load_dataset(benchmark, mode=None, data_dir=None)` finds the data (`data_dir`, else `MATHREEL_DATA`, else
`assets/demo`), reads the annotation files and returns a `Dataset` whose questions carry the benchmark's own
`Question` shape, plus the paths of each question's video, subtitles or diagram.
"""

from mathreel.core.data.dataset import Dataset, as_record, load_dataset
from mathreel.core.data.layouts import Layout, layout_for
from mathreel.core.data.locate import HF_PREFIX, data_spec
from mathreel.core.data.paths import assets_dir, cache_base, demo_dir, inside
from mathreel.core.ids import PAIR_SEPARATOR

__all__ = [
    "HF_PREFIX",
    "PAIR_SEPARATOR",
    "Dataset",
    "Layout",
    "as_record",
    "assets_dir",
    "cache_base",
    "data_spec",
    "demo_dir",
    "inside",
    "layout_for",
    "load_dataset",
]
