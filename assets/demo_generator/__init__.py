"""Builders for MathReel's embedded demo set; `assets/generate_demo.py` is the entry point.

Every file under assets/demo/ is made here from fixed parameters, so the same code gives the same bytes and the
answer to every question is computed from the numbers that draw its video or diagram.
"""
