"""Media: sampled video frames (PyAV or decord), frame-aligned subtitles (pysrt) and the H.264 writer (PyAV).

Submodules import their heavy libraries inside functions, so importing this package costs nothing.
"""
