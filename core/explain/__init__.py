"""Why two numbers differ: every reference figure of a file, a gap decomposed into per-question causes that add up
exactly, paired comparisons of runs, and the settings each run used."""
