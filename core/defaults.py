"""Defaults several surfaces share, in a module that imports nothing: `mathreel score` reads them at every start.

`DEFAULT_FRAMES` is the frame count the app shows a question with, and assumes a scored file used when it records
none (`mathreel score`, the Score tab): few enough to sample quickly. A benchmark's reference setting is
`Benchmark.default_frames`, which `mathreel show` and `mathreel run` use when no --frames is given. `core.view`
exports it beside the views it sizes.
"""

DEFAULT_FRAMES = 8

# The result-file layouts `mathreel score` and the Score tab read, as both name them to a user.
RESULT_FORMATS = "lmms-eval samples, Video-MME template, Video-MME-v2 TSV, MathVerse output, VLMEvalKit, JSONL/CSV"
