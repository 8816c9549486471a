"""MathReel's Gradio web app: one module per tab; every number it shows comes from core."""
