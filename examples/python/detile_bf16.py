"""A hand-written detile of TPU bf16 weights, property-tested against
tilecheck: the kind of host-side code a checkpoint tool or data loader has.

bf16[R,C]{1,0:T(8,128)(2,1)}: 8x128 tiles in row-major order, each holding
pairs of rows interleaved in 32-bit words: the element at (r, c) of a tile is
at ((r // 2) * 128 + c) * 2 + r % 2.

    python3 -m pytest examples/python/detile_bf16.py   (with the package on PYTHONPATH)
"""
import numpy as np
from hypothesis import given, settings, strategies as st

import tilecheck
from tilecheck.strategies import arrays_for, layouts


def detile_bf16(packed, rows, cols):
    """Row-major uint16 (bf16 bit patterns) [rows, cols] from the TPU buffer."""
    tile_rows, tile_cols = -(-rows // 8), -(-cols // 128)
    words = np.frombuffer(packed, np.uint16).reshape(tile_rows, tile_cols, 4, 128, 2)
    return words.transpose(0, 2, 4, 1, 3).reshape(tile_rows * 8, tile_cols * 128)[:rows, :cols]


def detile_bf16_broken(packed, rows, cols):
    """The same with the two rows of each 32-bit word swapped."""
    tile_rows, tile_cols = -(-rows // 8), -(-cols // 128)
    words = np.frombuffer(packed, np.uint16).reshape(tile_rows, tile_cols, 4, 128, 2)[..., ::-1]
    return words.transpose(0, 2, 4, 1, 3).reshape(tile_rows * 8, tile_cols * 128)[:rows, :cols]


# The layouts the function is for: TPU bf16 formats of rank 2, row-major.
bf16_weights = layouts(profile="tpu", max_rank=2, dtypes=["bf16"]).filter(
    lambda l: l.rank == 2 and l.minor_to_major == (1, 0) and l.tiles == ((8, 128), (2, 1)))


def detiles_like_tilecheck(detile):
    @settings(max_examples=100, database=None, deadline=None)
    @given(bf16_weights.flatmap(lambda l: st.tuples(st.just(l), arrays_for(l))))
    def check(case):
        layout, array = case
        packed = tilecheck.pack(array, layout)
        assert np.array_equal(detile(packed.tobytes(), *layout.dims), array), str(layout)
    check()


def test_detile_bf16():
    detiles_like_tilecheck(detile_bf16)


def test_the_broken_detile_is_caught():
    try:
        detiles_like_tilecheck(detile_bf16_broken)
    except AssertionError as failure:
        print("caught, shrunk to:", failure)
        return
    raise AssertionError("the broken detile passed")
