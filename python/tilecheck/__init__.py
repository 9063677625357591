"""tilecheck: the oracle for XLA tiled memory layouts, from Python.

    >>> import numpy as np, tilecheck
    >>> layout = tilecheck.Layout.parse("bf16[16,256]{1,0:T(8,128)(2,1)}")
    >>> layout.byte_size
    8192
    >>> packed = tilecheck.pack(np.zeros((16, 256), np.uint16), layout)
    >>> tilecheck.unpack(packed, layout).shape
    (16, 256)

Layouts are XLA's text (`Layout.parse`) or their parts in jax's vocabulary
(`Layout.from_fields`). pack, unpack and relayout run tilecheck's fast
implementation; linear_index and delinearize take whole numpy batches; prove
runs the Z3 proofs. Dense arrays follow one convention (tilecheck's
docs/PROTOCOL.md, "Dense buffers"): logical dims row-major, bf16 as uint16
bit patterns, s4/u4 one value per int8/uint8 (sign-extended for signed types),
pred as bool; `layout.dtype` is the numpy dtype. Errors in layouts raise
LayoutError, a ValueError, with the message the command line prints.

Hypothesis strategies are in tilecheck.strategies.
"""
from . import _tilecheck

Layout = _tilecheck.Layout
LayoutError = _tilecheck.LayoutError
pack = _tilecheck.pack
unpack = _tilecheck.unpack
relayout = _tilecheck.relayout
prove = _tilecheck.prove
catalog = _tilecheck.catalog
profiles = _tilecheck.profiles
__version__ = _tilecheck.__version__

__all__ = ["Layout", "LayoutError", "pack", "unpack", "relayout", "prove", "catalog", "profiles"]
