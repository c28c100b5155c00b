"""Adapters to research frameworks (OpenSpiel); optional extras, imported on demand."""
