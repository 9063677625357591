#!/usr/bin/env python3
"""An implementation of XLA tiled layouts that speaks tilecheck's JSON Lines
protocol (docs/PROTOCOL.md), in Python with the standard library only.

    tilecheck gate --impl-cmd 'python3 examples/python/tiled_layout_impl.py'

It reads one request per line on standard input and writes one reply per
line on standard output; anything it wants to log goes to standard error.
It uses the layout's parsed fields that every request carries, so it has no
parser of its own.

`--bug NAME` makes it wrong on purpose, to show that the gate catches it:
    nibble_order           4-bit values packed and unpacked high nibble first
    first_tile_size        byte size from the first tile only (as XLA's ArraySize)
    ignore_minor_to_major  every layout treated as row-major
    nonzero_padding        padding filled with 0xff instead of zeros
    delinearize_off_by_one the last element of a ragged row taken for padding
    combine_logical        a '*' merges logically adjacent dims: layouts with
                           '*' read as row-major
    odd_nibble_tail        4-bit: a half-filled final byte holds its element in
                           the high nibble
    index_32bit            linear indices computed in 32 bits (wrap past 2^31)
    stale_cache            byte sizes cached by dims and element type, not the
                           whole layout (wrong after an earlier layout)
    reused_buffer          pack writes into a buffer kept from the previous
                           pack, its padding not zeroed again
    index_float            linear indices accumulated in a double (as a
                           JavaScript number holds them): exact below 2^53
    dim_32bit              each dim and coordinate held in 32 bits (C's int),
                           the linear index in 64
    bits_overflow          byte size counted in bits in a signed 64-bit
                           integer (wraps past 2^63 bits)
    tile_32bit             a tile's number in its tile grid held in 32 bits
    rank_limit             ranks past 6 folded: the leading dims merged into
                           one, as if they were in the default order
"""
import argparse
import array
import base64
import json
import sys

PROTOCOL = 1
BUGS = ("nibble_order", "first_tile_size", "ignore_minor_to_major", "nonzero_padding",
        "delinearize_off_by_one", "combine_logical", "odd_nibble_tail", "index_32bit",
        "stale_cache", "reused_buffer", "index_float", "dim_32bit", "bits_overflow",
        "tile_32bit", "rank_limit")
_size_cache = {}  # stale_cache: (dims, element type) -> byte size
_buffer = bytearray()  # reused_buffer: the last pack's buffer


def ceil_div(a, b):
    return -(-a // b)


def combines(layout):
    return any(t == "*" for tile in layout["tiles"] for t in tile)


def int32(value):
    return (value + 2**31) % 2**32 - 2**31


def physical(layout, values):
    """Logical order -> physical order, most major first."""
    if BUG == "dim_32bit":  # as C's int would hold them
        values = [int32(v) for v in values]
    if BUG == "ignore_minor_to_major" or (BUG == "combine_logical" and combines(layout)):
        return list(values)
    m2m = layout["minor_to_major"]
    return [values[d] for d in reversed(m2m)]


def apply_tile(tile, bounds, index):
    """One tiling level: (prefix, d) -> (prefix, ceil(d/t), t) on the most
    minor dims; '*' merges a dim into the next more minor one."""
    if len(tile) > len(bounds):
        extra = len(tile) - len(bounds)
        bounds = [1] * extra + bounds
        index = [0] * extra + index
    split = len(bounds) - len(tile)
    prefix_b, prefix_i = bounds[:split], index[:split]
    counts_b, counts_i, within_b, within_i = [], [], [], []
    merged_b, merged_i = 1, 0
    for t, b, e in zip(tile, bounds[split:], index[split:]):
        merged_b, merged_i = merged_b * b, merged_i * b + e
        if t == "*":
            continue
        counts_b.append(ceil_div(merged_b, t))
        counts_i.append(merged_i // t)
        within_b.append(t)
        within_i.append(merged_i % t)
        merged_b, merged_i = 1, 0
    return prefix_b + counts_b + within_b, prefix_i + counts_i + within_i


def final_shape(layout, element=None):
    bounds = physical(layout, layout["dims"])
    index = physical(layout, element) if element is not None else [0] * len(bounds)
    for tile in layout["tiles"]:
        bounds, index = apply_tile(tile, bounds, index)
    return bounds, index


def linearize(bounds, index):
    position = 0
    for b, e in zip(bounds, index):
        position = position * b + e
        if BUG == "index_float":  # as a double holds it
            position = float(position)
    return int(position)


def folded(layout, element):
    """rank_limit: a layout of rank past 6 with its leading dims merged into
    one, and the element to match, as if those dims were in the default
    order."""
    dims = layout["dims"]
    k = len(dims) - 6
    if BUG != "rank_limit" or k <= 0:
        return layout, element
    lead = 1
    for d in dims[:k + 1]:
        lead *= d
    out = dict(layout)
    out["dims"] = [lead] + dims[k + 1:]
    out["minor_to_major"] = [0 if d == 0 else d - k for d in layout["minor_to_major"] if d == 0 or d > k]
    return out, [linearize(dims[:k + 1], element[:k + 1])] + element[k + 1:]


def linear_index(layout, element):
    layout, element = folded(layout, element)
    bounds, index = final_shape(layout, element)
    if BUG == "tile_32bit" and layout["tiles"]:
        # The position as the tile's number times its size plus the offset
        # in it, the number as C's int32_t would hold it.
        first = layout["tiles"][0]
        level1 = apply_tile(first, physical(layout, layout["dims"]), [0] * len(layout["dims"]))[0]
        grid = len(level1) - sum(1 for t in first if t != "*")  # the tile grid's dims
        size = 1
        for b in bounds[grid:]:
            size *= b
        return int32(linearize(bounds[:grid], index[:grid])) * size + linearize(bounds[grid:], index[grid:])
    position = linearize(bounds, index)
    if BUG == "index_32bit":  # as C's int32_t would hold it
        position = int32(position)
    return position


def padded_count(layout, tiles=None):
    bounds = physical(layout, layout["dims"])
    index = [0] * len(bounds)
    for tile in layout["tiles"] if tiles is None else tiles:
        bounds, index = apply_tile(tile, bounds, index)
    count = 1
    for b in bounds:
        count *= b
    align = layout["tail_padding_alignment"]
    return ceil_div(count, align) * align


def byte_size(layout):
    tiles = layout["tiles"][:1] if BUG == "first_tile_size" else None
    bits = padded_count(layout, tiles) * layout["element_bits"]
    if BUG == "bits_overflow":  # as C's int64_t would hold it
        bits = (bits + 2**63) % 2**64 - 2**63
    size = ceil_div(bits, 8)
    if BUG == "stale_cache":
        return _size_cache.setdefault((tuple(layout["dims"]), layout["element_type"]), size)
    return size


def elements(dims):
    """Every element, row-major."""
    element = [0] * len(dims)
    if any(d == 0 for d in dims):
        return
    while True:
        yield list(element)
        k = len(dims) - 1
        while k >= 0:
            element[k] += 1
            if element[k] < dims[k]:
                break
            element[k] = 0
            k -= 1
        if k < 0:
            return


def untile(tile, bounds, index):
    """One tiling level undone: `index` is after `tile` over `bounds` (the
    bounds before it); the index before it, or None for padding."""
    extra = max(0, len(tile) - len(bounds))
    bounds = [1] * extra + bounds
    split = len(bounds) - len(tile)
    groups = sum(1 for t in tile if t != "*")
    before = list(index[:split]) + [0] * len(tile)
    g = groups
    j = len(tile) - 1
    while j >= 0:
        g -= 1
        first = j
        while first > 0 and tile[first - 1] == "*":
            first -= 1
        bound = 1
        for d in range(first, j + 1):
            bound *= bounds[split + d]
        merged = index[split + g] * tile[j] + index[split + groups + g]
        if merged >= bound:
            return None
        for d in range(j, first - 1, -1):
            merged, before[split + d] = divmod(merged, bounds[split + d])
        j = first - 1
    return before[extra:]


def delinearize(layout, position):
    """The element at `position`, or None for padding: the tiling undone
    level by level."""
    bounds = [physical(layout, layout["dims"])]
    for tile in layout["tiles"]:
        bounds.append(apply_tile(tile, bounds[-1], [0] * len(bounds[-1]))[0])
    index = []
    for b in reversed(bounds[-1]):
        position, e = divmod(position, b)
        index.insert(0, e)
    if position:
        return None  # L(n) tail padding
    for tile, before in zip(reversed(layout["tiles"]), reversed(bounds[:-1])):
        index = untile(tile, before, index)
        if index is None:
            return None
    element = [0] * len(index)
    order = physical(layout, list(range(len(index))))
    for j, logical in enumerate(order):
        element[logical] = index[j]
    if BUG == "delinearize_off_by_one" and element and layout["tiles"]:
        last, tile = layout["dims"][-1], layout["tiles"][0][-1]
        if tile != "*" and last % tile != 0 and element[-1] == last - 1:
            return None  # "< last - 1" where "< last" was meant
    return element


def element_positions(layout):
    """The linear index of every element, row-major. Without a '*' the
    tiling maps each dim's coordinate on its own, so the index is a sum of
    one term per dim (the index of the element with that coordinate and
    zeros elsewhere): a table per dim, summed over all elements, costs an
    addition per element. Otherwise (and past 2^31 positions, where the
    narrow-arithmetic bugs start to differ from the sum) each element is
    indexed on its own."""
    dims = layout["dims"]
    if 0 in dims:
        return []
    separable = not combines(layout) and not (BUG == "rank_limit" and len(dims) > 6) and padded_count(layout) < 2**31
    if not separable:
        return [linear_index(layout, e) for e in elements(dims)]
    positions = [0]
    for d, n in enumerate(dims):
        unit = [0] * len(dims)
        table = []
        for x in range(n):
            unit[d] = x
            table.append(linear_index(layout, unit))
        sums = []
        for p in positions:
            sums.extend(map(p.__add__, table))
        positions = sums
    return positions


def bit_offset(layout, position, count):
    """Where the bits of the element at `position` start in the buffer of
    `count` positions."""
    bits = layout["element_bits"]
    offset = position * bits
    if BUG == "nibble_order" and bits == 4:
        offset ^= 4  # the other half of the byte
    if BUG == "odd_nibble_tail" and bits == 4 and count % 2 and offset == (count - 1) * 4:
        offset += 4  # the half-filled last byte: its high half
    return offset


# The array module's type code of an unsigned integer of each whole width.
WORDS = {array.array(code).itemsize: code for code in "BHILQ"}


def plain(layout):
    """Whether every element's bits start at its position times its width
    (no bug moves them), in 1, 2, 4 or whole 1, 2, 4, 8 bytes: the fast
    paths of pack and unpack."""
    bits = layout["element_bits"]
    return (BUG not in ("nibble_order", "odd_nibble_tail") and
            (bits in (1, 2, 4) or (bits % 8 == 0 and bits // 8 in WORDS)))


def pack(layout, dense):
    bits = layout["element_bits"]
    width = ceil_div(bits, 8)
    mask = (1 << bits) - 1
    out = bytearray(byte_size(layout))
    if BUG == "nonzero_padding":
        out = bytearray(b"\xff" * len(out))
    if BUG == "reused_buffer":  # the previous pack's bytes where this one writes none
        global _buffer
        _buffer = _buffer + bytearray(max(0, len(out) - len(_buffer)))
        out = _buffer[:len(out)]
    count = padded_count(layout)
    positions = element_positions(layout)
    fast = plain(layout)
    if fast and bits >= 8:  # whole words: each element to its position
        target = memoryview(out).cast(WORDS[width])
        for position, value in zip(positions, memoryview(dense).cast(WORDS[width])):
            target[position] = value
    elif fast and not any(out):
        # 1, 2 or 4 bits into zeros: each value to its position, then the
        # positions 8 // bits to a byte
        per_byte = 8 // bits
        values = bytearray(ceil_div(count, per_byte) * per_byte)
        for position, value in zip(positions, dense):
            values[position] = value & mask
        for j in range(per_byte):
            for k, v in enumerate(values[j::per_byte]):
                out[k] |= v << (j * bits)
    else:
        for i, position in enumerate(positions):
            value = int.from_bytes(dense[i * width:(i + 1) * width], "little") & mask
            offset = bit_offset(layout, position, count)
            first = offset // 8
            shifted = value << (offset % 8)
            keep = ~(mask << (offset % 8))
            for j in range(ceil_div(offset % 8 + bits, 8)):
                out[first + j] = (out[first + j] & (keep >> (8 * j)) & 0xFF) | ((shifted >> (8 * j)) & 0xFF)
    if BUG == "reused_buffer":
        _buffer[:len(out)] = out
    return bytes(out)


def unpack(layout, packed):
    """The dense array: each value in the low bits of its bytes, and above
    it zeros, or copies of its top bit for a signed integer type."""
    bits = layout["element_bits"]
    width = ceil_div(bits, 8)
    mask = (1 << bits) - 1
    is_signed = layout["element_type"].startswith("s")
    count = padded_count(layout)
    positions = element_positions(layout)

    def widened(value):
        if is_signed and value >> (bits - 1):
            value -= 1 << bits
        return value % (1 << (8 * width))

    fast = plain(layout)
    if fast and bits >= 8:  # whole words: each element from its position
        source = memoryview(packed).cast(WORDS[width])
        return array.array(WORDS[width], map(source.__getitem__, positions)).tobytes()
    if fast:  # 1, 2 or 4 bits: every position's value, then each element's
        shifts = range(0, 8, bits)
        values = [b >> shift & mask for b in packed for shift in shifts]
        table = bytes(widened(v) for v in range(1 << bits))
        return bytes(table[values[p]] for p in positions)
    out = bytearray()
    for position in positions:
        offset = bit_offset(layout, position, count)
        first = offset // 8
        chunk = packed[first:first + ceil_div(offset % 8 + bits, 8)]
        value = (int.from_bytes(chunk, "little") >> (offset % 8)) & mask
        out += widened(value).to_bytes(width, "little")
    return bytes(out)


def answer(request):
    op = request.get("op")
    if op == "start":
        return {"result": {
            "protocol": PROTOCOL,
            "name": "tiled_layout_impl.py" + ("" if BUG is None else " --bug " + BUG),
            "version": "1.0",
            "capabilities": {"operations": ["byte_size", "linear_index", "delinearize", "pack",
                                            "unpack", "relayout"]},
        }}
    layout = request["layout"]
    if op == "byte_size":
        return {"result": {"bytes": byte_size(layout)}}
    if op == "linear_index":
        return {"result": {"indices": [linear_index(layout, e) for e in request["elements"]]}}
    if op == "delinearize":
        return {"result": {"elements": [delinearize(layout, p) for p in request["positions"]]}}
    if op == "pack":
        packed = pack(layout, base64.b64decode(request["dense"]))
        return {"result": {"packed": base64.b64encode(packed).decode("ascii")}}
    if op == "unpack":
        dense = unpack(layout, base64.b64decode(request["packed"]))
        return {"result": {"dense": base64.b64encode(dense).decode("ascii")}}
    if op == "relayout":
        dense = unpack(layout, base64.b64decode(request["packed"]))
        packed = pack(request["to"], dense)
        return {"result": {"packed": base64.b64encode(packed).decode("ascii")}}
    return {"errored": {"message": "unknown operation %r" % op}}


def main():
    global BUG
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--bug", choices=BUGS, help="be wrong on purpose")
    BUG = parser.parse_args().bug
    for line in sys.stdin:
        request = json.loads(line)
        try:
            reply = answer(request)
        except Exception as e:  # a bug of ours: say so, with what we were asked
            reply = {"errored": {"message": "%s: %s" % (type(e).__name__, e)}}
        reply["seq"] = request["seq"]
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()


BUG = None
if __name__ == "__main__":
    main()
