"""The MathReel web app: Gradio Blocks, one module per tab, rendering what core computes."""
