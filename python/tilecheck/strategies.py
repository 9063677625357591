"""Hypothesis strategies for tiled layouts and their arrays.

    from hypothesis import given
    from tilecheck.strategies import layouts, arrays_for
    import tilecheck

    @given(layouts(profile="tpu", dtypes=["bf16"]).flatmap(
        lambda l: arrays_for(l).map(lambda a: (l, a))))
    def test_my_pack(case):
        layout, array = case
        assert my_pack(array, layout) == tilecheck.pack(array, layout).tobytes()

The layouts come from tilecheck's own generator, with the profiles of
`tilecheck gate --profile` ("general", "tpu", "gpu"); each of the
generator's choices is drawn by hypothesis, so a failing layout shrinks
towards the simplest one that still fails.
"""
import numpy as np
from hypothesis import reject, strategies as st
from hypothesis.extra import numpy as hnp

from . import _tilecheck

__all__ = ["layouts", "arrays_for"]

# How many layouts one example may draw before it gives up on narrowing
# (max_rank, dtypes): as `gate --types` does, by drawing again.
_DRAWS = 50


@st.composite
def layouts(draw, profile="general", max_rank=None, dtypes=None):
    """A strategy of tilecheck.Layout values drawn by tilecheck's generator.

    profile: "general" (every form tilecheck knows, weighted to edge cases),
    "tpu" (TPU formats on real-world shapes) or "gpu" (small tiles over
    narrow types), as `tilecheck gate --profile`. max_rank keeps layouts of
    at most that rank; dtypes (XLA names, e.g. ["bf16", "s4"]) keeps those
    element types. All layouts are small (at most about a thousand elements).
    """
    if profile not in _tilecheck.profiles:
        raise ValueError(f"unknown profile {profile!r}; one of {', '.join(_tilecheck.profiles)}")
    wanted = None if dtypes is None else set(dtypes)

    def choose(lo, hi):
        return draw(st.integers(min_value=lo, max_value=hi))

    for _ in range(_DRAWS):
        layout = _tilecheck._generate(profile, choose)
        if max_rank is not None and layout.rank > max_rank:
            continue
        if wanted is not None and layout.element_type not in wanted:
            continue
        return layout
    reject()


def _element_strategy(layout):
    dtype = layout.dtype
    bits = layout.element_bits
    if dtype.kind == "b":
        return st.booleans()
    if dtype.kind in "iu" and bits < 8 * dtype.itemsize:
        if dtype.kind == "i":
            return st.integers(-(1 << (bits - 1)), (1 << (bits - 1)) - 1)
        return st.integers(0, (1 << bits) - 1)
    return None  # hypothesis' own: every bit pattern of the dtype


def arrays_for(layout):
    """A strategy of dense numpy arrays for `layout`: its dtype and dims,
    every value one the element can hold (bf16 any uint16 bit pattern, s4
    -8..7, pred False/True)."""
    elements = _element_strategy(layout)
    if layout.dtype.kind == "V":  # no numpy integer of this width: raw bytes
        size, bits = layout.dtype.itemsize, layout.element_bits
        # The bits above the element's width are zero, as unpack writes them.
        mask = np.array([0xFF if 8 * (i + 1) <= bits else (1 << max(bits - 8 * i, 0)) - 1
                         for i in range(size)], dtype=np.uint8)
        count = size * layout.element_count
        return st.binary(min_size=count, max_size=count).map(
            lambda b: (np.frombuffer(b, dtype=np.uint8).reshape(-1, size) & mask)
            .view(layout.dtype).reshape(layout.dims))
    return hnp.arrays(layout.dtype, layout.dims, elements=elements)
