"""MathReel's scoring core: pure Python, never imports gradio or the web app."""
