"""Defaults several surfaces share, in a module that imports nothing: `mathreel score` reads them at every start.

`DEFAULT_FRAMES` is the frame count the app shows a question with, and assumes a scored file used when it records
none (`mathreel score`, the Score tab): few enough to sample quickly. A benchmark's reference setting is
`Benchmark.default_frames`, which `mathreel show` and `mathreel run` use when no --frames is given. `core.view`
exports it beside the views it sizes.
"""

DEFAULT_FRAMES = 8
