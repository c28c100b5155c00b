"""Benchmarks, cross-checks and experiments run by hand from the repository root as
``python -m bench.NAME`` (not tests); bench/README.md lists them and the results they wrote."""
