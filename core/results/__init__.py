"""Prediction-file readers with format detection: `read_results(path) -> ResultFile`."""

from mathreel.core.results.model import Prediction, ResultFile
from mathreel.core.results.reader import read_results

__all__ = ["Prediction", "ResultFile", "read_results"]
