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
runs the Z3 proofs; vectors writes golden vectors; gate checks another
implementation against the spec, as `tilecheck gate --impl-cmd` does; a
Layout draws its memory map (`draw()`, `svg()`, and as a picture in a
notebook). Dense arrays follow one convention (tilecheck's
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
import shlex as _shlex

Layout = _tilecheck.Layout
LayoutError = _tilecheck.LayoutError
GateInputError = _tilecheck.GateInputError
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


class GateReport:
    """The verdict of tilecheck.gate: `ok` (every checked case passed and
    something was checked), `text` (the report `tilecheck gate` prints;
    also str(report)), `json` (the report of `tilecheck gate --json` as a
    dict, tilecheck's docs/GATE.md; None when the implementation could not
    be checked at all) and `error` (why not, or None). report["functions"]
    and the like read the JSON report's keys."""

    def __init__(self, json_text, text, ok, error):
        self.json = None if json_text is None else _json.loads(json_text)
        self.text = text
        self.ok = ok
        self.error = error

    def __getitem__(self, key):
        if self.json is None:
            raise KeyError(f"{key!r}: no JSON report ({self.error})")
        return self.json[key]

    def __bool__(self):
        return self.ok

    def __str__(self):
        return self.text

    def __repr__(self):
        failures = self.json["failures"] if self.json else [self.error]
        return f"<GateReport ok={self.ok} failures={failures!r}>"


def gate(impl_cmd=None, *, impl=None, layouts=(), profile="general", cases=100, seed=1, skip=(),
         require=(), padding="zero", size_model="exact", max_rank=None, types=(), limits=(),
         max_array_bytes="2M", timeout=10.0, shrink_seconds=5.0, reach_set=True, size_set=True,
         coverage=False):
    """Checks an implementation against the spec as `tilecheck gate` does,
    in processes of its own, and returns its GateReport:

        report = tilecheck.gate(impl_cmd=["python3", "my_impl.py"])
        assert report.ok, report.text

    impl_cmd is a command speaking the JSON Lines protocol (tilecheck's
    docs/PROTOCOL.md): a shell command line (str) or its words (a list,
    quoted for the shell here); impl is instead a shared library with the
    plugin's functions. The other arguments are the flags of `tilecheck
    gate`: layouts (--layout, a Layout or its text, instead of the
    catalogue and generated layouts), profile, cases (generated layouts),
    seed, skip (known gaps: globs over case ids), require (operations that
    must be answered), padding ('zero' or 'any'), size_model ('exact' or
    'xla'), max_rank, types (XLA names), limits ('cpu=S', 'memory=B',
    'files=N', 'processes=N'), max_array_bytes, timeout (seconds per
    answer), shrink_seconds, reach_set and size_set (False: --no-reach-set,
    --no-size-set) and coverage (the coverage table and JSON object).

    A crash, hang or wrong answer is a failure in the report; an
    implementation that cannot be checked at all (it does not start or
    answer the handshake) is a report with ok False and its error. Bad
    arguments raise GateInputError (a ValueError), bad layouts LayoutError.
    """
    if (impl_cmd is None) == (impl is None):
        raise ValueError("gate: give impl_cmd (a command) or impl (a shared library), one of them")
    if impl_cmd is not None and not isinstance(impl_cmd, str):
        impl_cmd = _shlex.join(str(word) for word in impl_cmd)
    if isinstance(layouts, (str, Layout)):
        layouts = [layouts]
    if isinstance(skip, str):
        skip = [skip]
    if isinstance(require, str):
        require = [require]
    if isinstance(types, str):
        types = types.split(",")
    if isinstance(limits, str):
        limits = limits.split(",")
    layouts = [str(Layout.parse(str(layout))) for layout in layouts]
    if not 1 <= cases <= 2**30:
        raise ValueError(f"gate: cases {cases} is not in [1, 2**30]")
    if max_rank is not None and not 0 <= max_rank <= 64:
        raise ValueError(f"gate: max_rank {max_rank} is not in [0, 64]")
    if not 0.001 <= timeout <= 86400:
        raise ValueError(f"gate: timeout {timeout} is not in [0.001, 86400] seconds")
    if not 0 <= shrink_seconds <= 86400:
        raise ValueError(f"gate: shrink_seconds {shrink_seconds} is not in [0, 86400]")
    return GateReport(*_tilecheck._gate(
        "" if impl is None else str(impl), impl_cmd or "", layouts, profile, cases, seed, list(skip),
        list(require), padding, size_model, -1 if max_rank is None else max_rank, list(types),
        list(limits), str(max_array_bytes), float(timeout), float(shrink_seconds), reach_set, size_set,
        coverage))


__all__ = ["Layout", "LayoutError", "pack", "unpack", "relayout", "prove", "catalog", "profiles",
           "vectors", "gate", "GateReport", "GateInputError"]
