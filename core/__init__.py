"""MathReel's scoring core: pure Python, never imports gradio or the web app."""

__version__ = "0.1.0"
