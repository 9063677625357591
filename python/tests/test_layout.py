"""The Python package against the golden vectors and the dense-buffer
convention: parsing, sizes, batch indexing, pack/unpack/relayout, errors,
jax's vocabulary, proofs. The vectors are written by tilecheck's spec; these
calls run its fast implementation, so agreement is a real check."""
import json
import pathlib

import numpy as np
import pytest
from hypothesis import given, strategies as st

import tilecheck
from tilecheck import Layout, LayoutError

ROOT = pathlib.Path(__file__).resolve().parents[2]
VECTORS = json.loads((ROOT / "vectors/v1/tiled_layouts_test.json").read_text())


def layout_groups():
    return [g for g in VECTORS["testGroups"] if g["type"] == "LayoutTest"]


@pytest.mark.parametrize("group", layout_groups(), ids=lambda g: g["id"])
def test_every_vector_of_every_layout(group):
    layout = Layout.parse(group["layout"])
    assert str(layout) == group["layout"]
    fields = group["fields"]
    assert layout.dims == tuple(fields["dims"])
    assert layout.minor_to_major == tuple(fields["minor_to_major"])
    assert layout.element_bits == fields["element_bits"]
    assert layout.element_type == fields["element_type"]
    assert [list(t) for t in layout.tiles] == fields["tiles"]
    tests = group["tests"]
    index_tests = [t for t in tests if t["op"] == "linear_index"]
    if index_tests:
        elements = np.array([t["element"] for t in index_tests], dtype=np.int64).reshape(
            len(index_tests), layout.rank)
        indices = layout.linear_index(elements)
        assert indices.tolist() == [t["index"] for t in index_tests]
        back = layout.delinearize(indices)
        assert back.tolist() == elements.tolist()
        assert layout.linear_index(index_tests[-1]["element"]) == index_tests[-1]["index"]
    for t in tests:
        if t["op"] == "size":
            assert (layout.element_count, layout.byte_size) == (t["elements"], t["bytes"])
        elif t["op"] == "delinearize":
            assert layout.delinearize(t["position"]) is None
            assert layout.delinearize(np.array([t["position"]])).tolist() == [[-1] * layout.rank]
        elif t["op"] in ("pack", "unpack"):
            dense = np.frombuffer(bytes.fromhex(t["dense_hex"]), dtype=np.uint8).view(
                layout.dtype).reshape(layout.dims)
            packed = bytes.fromhex(t["packed_hex"])
            assert tilecheck.unpack(packed, layout).tobytes() == dense.tobytes()
            if t["op"] == "pack":
                assert tilecheck.pack(dense, layout).tobytes() == packed


def test_fields_and_canonical_text():
    layout = Layout.parse("BF16[16, 256]{1,0:T(8,128)(2,1)}")
    assert str(layout) == "bf16[16,256]{1,0:T(8,128)(2,1)}"
    assert repr(layout) == "Layout.parse('bf16[16,256]{1,0:T(8,128)(2,1)}')"
    assert layout == Layout.parse(str(layout)) and len({layout, Layout.parse(str(layout))}) == 1
    assert layout.tiles == ((8, 128), (2, 1))
    assert layout.dtype == np.uint16
    combined = Layout.parse("bf16[3,5,140]{2,1,0:T(2,*,128)(2,1)}")
    assert combined.tiles == ((2, "*", 128), (2, 1))
    assert combined.element_size_bits is None


def test_device_byte_size_of_sub_byte_arrays():
    # Not size * itemsize: two s4 per byte, tiles padded, pred as bits under E(1).
    assert Layout.parse("s4[16,256]{1,0:T(8,128)(8,1)E(4)}").byte_size == 2048
    assert Layout.parse("s4[20,200]{1,0:T(8,128)(8,1)E(4)}").byte_size == 3 * 2 * 512
    assert Layout.parse("pred[64,256]{1,0:T(32,128)(32,1)E(1)}").byte_size == 2048
    assert Layout.parse("pred[10]{0}").byte_size == 10
    assert Layout.parse("f32[5]{0:T(2)(4)}").byte_size == 48


def test_jax_order_is_major_to_minor_and_xla_minor_to_major():
    # The document's Figure 1 in both vocabularies.
    jax_style = Layout.from_fields([3, 5], "f32", major_to_minor=(0, 1), tiling=((2, 2),))
    xla_style = Layout.from_fields([3, 5], "f32", minor_to_major=(1, 0), tiling=((2, 2),))
    assert str(jax_style) == str(xla_style) == "f32[3,5]{1,0:T(2,2)}"
    assert jax_style.major_to_minor == (0, 1) and jax_style.minor_to_major == (1, 0)
    # Column-major: jax (1, 0) is XLA {0,1}.
    assert str(Layout.from_fields([3, 5], "f32", major_to_minor=(1, 0))) == "f32[3,5]{0,1}"
    # A TPU int4 weight as jax describes it.
    s4 = Layout.from_fields([16, 256], "s4", major_to_minor=(0, 1),
                            tiling=((8, 128), (8, 1)), sub_byte_element_size_in_bits=4)
    assert str(s4) == "s4[16,256]{1,0:T(8,128)(8,1)E(4)}"
    assert str(Layout.from_fields([2, 7, 8], "bf16", tiling=((2, "*", 128), (2, 1)))) == \
        "bf16[2,7,8]{2,1,0:T(2,*,128)(2,1)}"
    with pytest.raises(LayoutError, match="not both"):
        Layout.from_fields([3], "f32", major_to_minor=(0,), minor_to_major=(0,))
    with pytest.raises(LayoutError, match="not a permutation"):
        Layout.from_fields([3, 5], "f32", major_to_minor=(0, 0))
    with pytest.raises(LayoutError, match="unknown element type"):
        Layout.from_fields([3], "float32")


def test_sub_byte_values_and_sign_extension():
    layout = Layout.parse("s4[3]{0}")
    assert layout.dtype == np.int8
    packed = tilecheck.pack(np.array([1, 2, -3], dtype=np.int8), layout)
    assert packed.tobytes() == bytes([0x21, 0x0D])
    assert tilecheck.unpack(packed, layout).tolist() == [1, 2, -3]
    with pytest.raises(ValueError, match="does not fit in 4 bits: the values are -8..7"):
        tilecheck.pack(np.array([1, 8, 0], dtype=np.int8), layout)
    u4 = Layout.parse("u4[2]{0}")
    with pytest.raises(ValueError, match="0..15"):
        tilecheck.pack(np.array([16, 0], dtype=np.uint8), u4)
    pred = Layout.parse("pred[10]{0:E(1)}")
    bits = np.array([True, False] * 5)
    assert tilecheck.pack(bits, pred).tobytes() == bytes([0x55, 0x01])
    assert tilecheck.unpack(tilecheck.pack(bits, pred), pred).dtype == np.bool_


def test_wrong_arrays_and_buffers_are_value_errors():
    layout = Layout.parse("bf16[16,256]{1,0:T(8,128)(2,1)}")
    with pytest.raises(ValueError, match="dtype is float32.*uint16.*bit patterns"):
        tilecheck.pack(np.zeros((16, 256), np.float32), layout)
    with pytest.raises(ValueError, match=r"shape is \(16, 255\)"):
        tilecheck.pack(np.zeros((16, 255), np.uint16), layout)
    with pytest.raises(ValueError, match="8191 bytes, the layout's physical buffer 8192"):
        tilecheck.unpack(bytes(8191), layout)
    with pytest.raises(ValueError, match="not contiguous"):
        tilecheck.unpack(np.zeros(16384, np.uint8)[::2], layout)
    with pytest.raises(TypeError):
        tilecheck.unpack(12, layout)
    with pytest.raises(ValueError):
        tilecheck.pack(np.zeros((16, 256), ">u2"), layout)  # big-endian
    f32 = Layout.parse("f32[3,5]{1,0:T(2,2)}")
    with pytest.raises(LayoutError, match="coordinate 1 is 5"):
        f32.linear_index(np.array([[0, 0], [2, 5]]))
    with pytest.raises(TypeError, match="integers"):
        f32.linear_index(np.array([[0.5, 1.0]]))
    with pytest.raises(LayoutError, match="outside"):
        f32.delinearize(np.array([0, 24]))


def test_non_contiguous_arrays_pack_like_their_copies():
    layout = Layout.parse("f32[13,300]{1,0:T(8,128)}")
    base = np.arange(300 * 13, dtype=np.float32).reshape(300, 13)
    view = base.T  # Fortran-ordered view of shape (13, 300)
    assert not view.flags["C_CONTIGUOUS"]
    assert tilecheck.pack(view, layout).tobytes() == \
        tilecheck.pack(np.ascontiguousarray(view), layout).tobytes()


def test_views_are_packed_and_unpacked_in_place():
    """Slices, transposes and views of larger arrays are read and written in
    place (their strides), with the bytes of a contiguous copy; unpack into a
    view writes nothing else of the array under it."""
    layout = Layout.parse("bf16[16,300]{1,0:T(8,128)(2,1)}")
    rng = np.random.default_rng(2)
    big = rng.integers(0, 1 << 16, size=(320, 700), dtype=np.uint16)
    for view in (big[3:19, 100:400], big[::2, ::2][:16, :300], big[:300, :16].T):
        assert not view.flags["C_CONTIGUOUS"]
        want = tilecheck.pack(np.ascontiguousarray(view), layout)
        assert tilecheck.pack(view, layout).tobytes() == want.tobytes()
        canvas = big.copy()
        target = canvas[3:19, 100:400]
        assert tilecheck.unpack(want, layout, out=target) is target
        assert np.array_equal(target, view)
        untouched = canvas.copy()
        untouched[3:19, 100:400] = big[3:19, 100:400]
        assert np.array_equal(untouched, big)
    with pytest.raises(LayoutError, match="may overlap"):
        tilecheck.unpack(want, layout, out=np.lib.stride_tricks.as_strided(
            np.zeros(300, np.uint16), shape=(16, 300), strides=(0, 2)))
    with pytest.raises(ValueError, match="non-negative strides"):
        tilecheck.unpack(want, layout, out=np.zeros((16, 300), np.uint16)[::-1])
    # Reversed views are copied first, then packed.
    assert tilecheck.pack(big[18:2:-1, 100:400], layout).tobytes() == \
        tilecheck.pack(np.ascontiguousarray(big[18:2:-1, 100:400]), layout).tobytes()


@pytest.mark.parametrize("text", ["bf16[40,300]{1,0:T(8,128)(2,1)}", "f32[13,70]{0,1:T(8,128)}",
                                  "s4[40,256]{1,0:T(8,128)(8,1)E(4)}", "f32[10,7]{1,0}"])
def test_row_slices_pack_the_whole_array_in_chunks(text):
    layout = Layout.parse(text)
    dim, g = layout.row_slice_dim, layout.row_slice_granularity
    rng = np.random.default_rng(3)
    dense = tilecheck.unpack(rng.integers(0, 256, layout.byte_size, dtype=np.uint8), layout)
    whole = tilecheck.pack(dense, layout)
    buffer = np.full(layout.byte_size, 0xAB, np.uint8)
    back = np.zeros_like(dense)
    rows = layout.dims[dim]
    for begin in range(0, rows, g * 2):
        end = min(begin + g * 2, rows)
        part, offset, count = layout.row_slice(begin, end)
        index = (slice(None),) * dim + (slice(begin, end),)
        tilecheck.pack(dense[index], part, out=buffer[offset:offset + count])
        tilecheck.unpack(whole[offset:offset + count], part, out=back[index])
    assert buffer.tobytes() == whole.tobytes()
    assert back.tobytes() == dense.tobytes()  # bytes: random f32 bits include NaNs
    if g > 1:
        with pytest.raises(LayoutError, match="multiples of"):
            layout.row_slice(1, rows)


def test_relayout_is_unpack_then_pack():
    a = Layout.parse("bf16[17,333]{1,0:T(8,128)(2,1)}")
    b = Layout.parse("bf16[17,333]{0,1:T(8,128)}")
    rng = np.random.default_rng(1)
    dense = rng.integers(0, 1 << 16, size=(17, 333), dtype=np.uint16)
    packed = tilecheck.pack(dense, a)
    assert tilecheck.relayout(packed, a, b).tobytes() == tilecheck.pack(dense, b).tobytes()
    with pytest.raises(LayoutError):
        tilecheck.relayout(packed, a, Layout.parse("f32[17,333]{1,0}"))


def test_layout_text_errors_say_where():
    with pytest.raises(LayoutError, match=r"layout 'f32\[3,5\]\{0,0\}': column 9: .*not a permutation"):
        Layout.parse("f32[3,5]{0,0}")
    with pytest.raises(ValueError):
        Layout.parse("f32[?,4]")  # no buffer size


@given(st.text(max_size=60))
def test_malformed_text_raises_layout_error_or_parses(text):
    try:
        layout = Layout.parse(text)
    except LayoutError:
        return
    assert Layout.parse(str(layout)) == layout


@given(st.sampled_from([c[1] for c in tilecheck.catalog()]), st.data())
def test_corrupted_catalogue_texts_never_crash(layout, data):
    text = str(layout)
    at = data.draw(st.integers(0, len(text)))
    insert = data.draw(st.text(alphabet="0123456789,:*(){}[]?-TLESM ", max_size=3))
    cut = data.draw(st.integers(0, 2))
    corrupted = text[:at] + insert + text[at + cut:]
    try:
        Layout.parse(corrupted)
    except LayoutError:
        pass


def test_prove():
    result = tilecheck.prove("f32[?,?]{1,0:T(8,128)}")
    assert result["proved"] and result["layout"] == "f32[?,?]{1,0:T(8,128)}"
    assert [o["name"] for o in result["obligations"]] == ["P1", "P2", "P3", "P5"]
    concrete = tilecheck.prove(Layout.parse("bf16[16,256]{1,0:T(8,128)(2,1)}"))
    assert concrete["proved"] and "P4" in [o["name"] for o in concrete["obligations"]]


def test_catalogue_and_version():
    names = [name for name, _ in tilecheck.catalog()]
    assert "doc_figure1" in names and len(names) == len(set(names))
    assert tilecheck.__version__.count(".") == 2


def test_out_buffers_are_written_in_place():
    layout = Layout.parse("bf16[17,333]{1,0:T(8,128)(2,1)}")
    dense = np.arange(17 * 333, dtype=np.uint16).reshape(17, 333)
    out = np.full(layout.byte_size, 0xAB, np.uint8)
    assert tilecheck.pack(dense, layout, out=out) is out
    assert out.tobytes() == tilecheck.pack(dense, layout).tobytes()  # padding zeroed too
    back = np.empty((17, 333), np.uint16)
    assert tilecheck.unpack(out, layout, out=back) is back and np.array_equal(back, dense)
    with pytest.raises(ValueError, match="out must have dtype uint8 and shape"):
        tilecheck.pack(dense, layout, out=np.empty(layout.byte_size - 1, np.uint8))
    with pytest.raises(ValueError, match="must be writable"):
        frozen = np.empty(layout.byte_size, np.uint8)
        frozen.flags.writeable = False
        tilecheck.pack(dense, layout, out=frozen)


TYPES = ["pred", "s1", "s2", "s4", "s8", "s16", "s32", "s64", "u1", "u2", "u4", "u8", "u16", "u32",
         "u64", "f16", "bf16", "f32", "f64", "c64", "c128", "f8e5m2", "f8e4m3", "f8e4m3fn",
         "f8e4m3b11fnuz", "f8e5m2fnuz", "f8e4m3fnuz", "f8e3m4", "f8e8m0fnu", "f4e2m1fn"]


@pytest.mark.parametrize("element_type", TYPES)
def test_every_element_type_round_trips(element_type):
    layout = Layout.parse(f"{element_type}[3,5]{{1,0:T(2,2)}}")
    rng = np.random.default_rng(7)
    raw = rng.integers(0, 256, size=layout.dense_byte_size, dtype=np.uint8)
    dense = raw.view(layout.dtype).reshape(layout.dims) if layout.dtype.kind != "b" else \
        (raw & 1).astype(bool).reshape(layout.dims)
    bits, kind = layout.element_bits, layout.dtype.kind
    if kind in "iu" and bits < 8 * layout.dtype.itemsize:  # keep the values the element holds
        low = dense.astype(np.int64) & ((1 << bits) - 1)
        if kind == "i":
            low = np.where(low >= 1 << (bits - 1), low - (1 << bits), low)
        dense = low.astype(layout.dtype)
    packed = tilecheck.pack(dense, layout)
    assert packed.shape == (layout.byte_size,)
    assert tilecheck.unpack(packed, layout).tobytes() == dense.tobytes()
