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
runs the Z3 proofs; vectors writes golden vectors; a Layout draws its memory
map (`draw()`, `svg()`, and as a picture in a notebook). Dense arrays follow one convention (tilecheck's
docs/PROTOCOL.md, "Dense buffers"): logical dims row-major, bf16 as uint16
bit patterns, s4/u4 one value per int8/uint8 (sign-extended for signed types),
pred as bool; `layout.dtype` is the numpy dtype. Errors in layouts raise
LayoutError, a ValueError, with the message the command line prints.

Hypothesis strategies are in tilecheck.strategies.
"""
try:
    import numpy as _numpy  # noqa: F401 -- the extension's arrays: imported here, so that a missing numpy is said now
    from . import _tilecheck
except ImportError as error:  # another interpreter than the one it was built for, or no numpy
    import sys as _sys
    from . import _build
    raise ImportError(
        f"tilecheck's extension was built for {_build.PYTHON_EXECUTABLE} (Python {_build.PYTHON_VERSION}), "
        f"with that interpreter's numpy (Debian's python3-numpy); this is {_sys.executable} "
        f"(Python {_sys.version.split()[0]}) and the import failed: {error}. Run {_build.PYTHON_EXECUTABLE}, "
        f"or build the package for this interpreter with -DPython_EXECUTABLE={_sys.executable} "
        f"(tilecheck's docs/PYTHON.md)") from error

import json as _json

Layout = _tilecheck.Layout
LayoutError = _tilecheck.LayoutError
pack = _tilecheck.pack
unpack = _tilecheck.unpack
relayout = _tilecheck.relayout
prove = _tilecheck.prove
catalog = _tilecheck.catalog
profiles = _tilecheck.profiles
__version__ = _tilecheck.__version__


def vectors(layouts=(), *, catalog=False, count=16, seed=1, text=False):
    """Golden vectors from the spec, the document `tilecheck vectors` prints
    (its format: tilecheck's docs/VECTORS.md): for each layout (a Layout or
    its text) its size, the linear index of `count` chosen elements (all of
    them when there are fewer), padding positions, and a pack and an unpack
    test; or, with catalog=True instead of layouts, every layout of the
    built-in catalogue and the parse tests. The same seed gives the same
    document. Returns the document as a dict, or with text=True as the text
    the command prints (one test per line), ready to write to a file.
    """
    if isinstance(layouts, (str, Layout)):
        layouts = [layouts]
    layouts = [str(layout) for layout in layouts]
    if catalog and layouts:
        raise ValueError("vectors: give layouts or catalog=True, not both")
    if not catalog and not layouts:
        raise ValueError("vectors: give one or more layouts, or catalog=True")
    if not 0 <= count <= 100000:
        raise ValueError(f"vectors: count {count} is not in [0, 100000]")
    if not 0 <= seed < 2**64:
        raise ValueError(f"vectors: seed {seed} is not in [0, 2**64)")
    document = _tilecheck._vectors(layouts, catalog, count, seed)
    return document if text else _json.loads(document)


__all__ = ["Layout", "LayoutError", "pack", "unpack", "relayout", "prove", "catalog", "profiles",
           "vectors"]
