"""Where each benchmark keeps its annotations, videos, subtitles and diagrams on disk.

These are the published layouts (the Hugging Face repositories as downloaded and unpacked), which the embedded
demo set copies exactly, so one loader serves both. Kept as declarative data: the loader never branches on a
benchmark's name, it reads the layout.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Layout:
    """One benchmark's files, relative to its root folder.

    `annotations` maps a mode to glob patterns tried in order (the first pattern with matches wins; several
    matches of one pattern are shards read in name order). Media folders hold `<video id><ext>` files.
    """

    subdir: str  # the folder name under a parent data directory holding several benchmarks
    annotations: dict[str, tuple[str, ...]]
    video_dirs: tuple[str, ...] = ()
    video_exts: tuple[str, ...] = (".mp4", ".MP4", ".mkv")
    subtitle_dirs: tuple[str, ...] = ()
    subtitle_ext: str = ".srt"
    image_dirs: tuple[str, ...] = ()  # folders a relative image path is resolved against, in order
    json_fields: tuple[str, ...] = ()  # fields that may arrive as a JSON string holding an object
    extra_fetch: tuple[str, ...] = field(default=())  # more patterns worth fetching from a hub repository

    @property
    def all_patterns(self) -> tuple[str, ...]:
        """Every annotation pattern of every mode, used to recognise a root folder."""
        return tuple(p for patterns in self.annotations.values() for p in patterns)

    @property
    def has_video(self) -> bool:
        return bool(self.video_dirs)


LAYOUTS: dict[str, Layout] = {
    "videomathqa": Layout(
        subdir="videomathqa",
        annotations={
            # The file names of the release; the folders are the Hub's per-config layout (configs mcq, multi_binary).
            "mcq": ("videomathqa_mcq_test.parquet", "mcq/test-*.parquet"),
            "mbin": ("videomathqa_mbin_test.parquet", "multi_binary/test-*.parquet"),
        },
        video_dirs=("videos",),
        subtitle_dirs=("subtitles",),
        extra_fetch=("subtitles/*.srt",),
    ),
    "videomme": Layout(
        subdir="videomme",
        annotations={"mcq": ("videomme/test-*.parquet",)},
        video_dirs=("data",),
        subtitle_dirs=("subtitle",),
        extra_fetch=("subtitle/*.srt",),
    ),
    "mathverse": Layout(
        subdir="mathverse",
        annotations={
            "default": (
                "testmini.json",
                "testmini*.parquet",
                "testmini/*.parquet",
                "data/testmini*.parquet",
            ),
        },
        image_dirs=("", "images"),
        json_fields=("metadata",),
    ),
}


def layout_for(benchmark: object) -> Layout:
    """The layout of a benchmark object: its own `layout` attribute if it has one, else the table above."""
    own = getattr(benchmark, "layout", None)
    if isinstance(own, Layout):
        return own
    return LAYOUTS[benchmark.name]  # type: ignore[attr-defined]
