"""tilecheck.strategies: the profiles' layouts, their arrays, narrowing,
and a property over them (pack then unpack gives the array back)."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import tilecheck
from tilecheck.strategies import arrays_for, layouts


@given(layouts(profile="tpu", max_rank=2, dtypes=["bf16", "s4"]))
def test_narrowing(layout):
    assert layout.rank <= 2 and layout.element_type in ("bf16", "s4")
    assert tilecheck.Layout.parse(str(layout)) == layout


@pytest.mark.parametrize("profile", tilecheck.profiles)
def test_pack_unpack_round_trip(profile):
    @settings(max_examples=60)
    @given(layouts(profile=profile).flatmap(lambda l: st.tuples(st.just(l), arrays_for(l))))
    def round_trip(case):
        layout, array = case
        packed = tilecheck.pack(array, layout)
        assert packed.shape == (layout.byte_size,)
        assert tilecheck.unpack(packed, layout).tobytes() == array.tobytes()

    round_trip()


@given(st.data())
def test_profiles_draw_their_formats(data):
    tpu = data.draw(layouts(profile="tpu"))
    assert tpu.tiles  # every TPU format is tiled
    gpu = data.draw(layouts(profile="gpu"))
    assert all(isinstance(e, int) and e <= 32 for t in gpu.tiles for e in t)


def test_unknown_profile():
    @given(layouts(profile="npu"))
    def draw(layout):
        pass

    with pytest.raises(ValueError, match="unknown profile"):
        draw()


def test_arrays_hold_what_the_element_holds():
    for text, lo, hi in (("s4[64]{0}", -8, 7), ("u2[64]{0}", 0, 3), ("u16[64]{0:E(12)}", 0, 4095)):
        layout = tilecheck.Layout.parse(text)

        @settings(max_examples=30)
        @given(arrays_for(layout))
        def in_range(array):
            assert array.dtype == layout.dtype and array.shape == layout.dims
            assert array.min(initial=lo) >= lo and array.max(initial=hi) <= hi

        in_range()
