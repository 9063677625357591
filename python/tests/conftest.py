"""Hypothesis settings of the Python tests: no example database (the tests
run from a clean tree in CI), no per-example deadline (a shared machine's
timing is noise), and a fixed number of examples."""
from hypothesis import settings

settings.register_profile("tilecheck", database=None, deadline=None, max_examples=100,
                          print_blob=True)
settings.load_profile("tilecheck")
