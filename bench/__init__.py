"""Benchmarks for `make bench`: every figure beside a floor measured in the same run, as a ratio."""
