// Property 14: the plan's speed choices. Each picks between paths that write
// the same bytes, so no comparison of bytes can tell a broken choice from a
// right one; these properties check each choice where it shows, in the leaf
// calls the walk makes (PackPlan::leaf_calls), against the rule
// docs/COVERAGE.md ("Speed choices") states for it, in terms of the layout
// and the options rather than of the plan's digits.
#include <rapidcheck.h>

#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

#include <tilecheck/impl/plan.h>
#include "properties/property_registry.h"
#include "properties/rc_layout_gen.h"
#include <tilecheck/spec/semantics.h>

namespace tilecheck::props {
// Its own namespace: the suites build as one unity file.
namespace speed {
namespace {

using LeafCall = impl::PackPlan::LeafCall;
using Kind = LeafCall::Kind;

// More calls than any of these properties' layouts make.
constexpr size_t kMaxCalls = size_t{1} << 16;

const char* kind_name(Kind k) {
  switch (k) {
    case Kind::kRun: return "run";
    case Kind::kInterleave: return "row interleave";
    case Kind::kColumns: return "columns";
    case Kind::kTranspose: return "SIMD transpose";
    case Kind::kScalarBlock: return "scalar block";
    case Kind::kBitBlock: return "sub-byte block";
    case Kind::kPanel: return "panel";
    case Kind::kTransposePanel: return "transposing panel";
  }
  return "?";
}

std::string describe(const LeafCall& call, size_t i) {
  std::ostringstream os;
  os << "call " << i << ": " << kind_name(call.kind) << (call.stream ? ", streamed" : ", cached") << ", dense "
     << call.dense << ", physical " << call.phys << ", " << call.columns << " columns (stride "
     << call.column_stride << ") x " << call.rows << " rows (stride " << call.row_stride << ") of "
     << call.element_bytes << "-byte elements";
  return os.str();
}

// The leaf calls of a pack or unpack of `shape`: from the row-major dense
// array, or, given `dense_byte_strides`, from that strided view of it.
std::vector<LeafCall> calls_of(const ShapeWithLayout& shape, bool pack, const impl::ExecOptions& options,
                               uintptr_t address = 4096, const std::vector<int64_t>& dense_byte_strides = {}) {
  RC_LOG() << (pack ? "pack " : "unpack ") << print_shape(shape);
  if (!dense_byte_strides.empty()) RC_LOG() << " from dense byte strides " << join(dense_byte_strides);
  RC_LOG() << "\n";
  const impl::PackPlan plan =
      dense_byte_strides.empty() ? impl::PackPlan(shape) : impl::PackPlan(shape, dense_byte_strides);
  std::vector<LeafCall> calls = plan.leaf_calls(pack, options, address, kMaxCalls);
  RC_ASSERT(calls.size() < kMaxCalls);
  return calls;
}

ShapeWithLayout parse(const std::string& text) { return spec::parse_layout(text); }

// A size drawn to sit on the edges of a rule (15, 16, 17; 255, 256, 257)
// half the time, anywhere in [lo, hi] otherwise.
int64_t edge_or_any(int64_t lo, int64_t hi, std::vector<int64_t> edges) {
  return *rc::gen::arbitrary<bool>() ? *rc::gen::elementOf(edges) : *rc::gen::inRange<int64_t>(lo, hi + 1);
}

// 14 (streaming). Non-temporal stores (Mover::stream) are asked for exactly
// where ExecOptions and the layout allow them: a destination of at least
// stream_bytes (the physical size for pack, the dense size for unpack)
// that starts on a cache line, in a layout without padding inside its
// tiles, or one whose ragged tiles a panel writes (in whole vectors). The
// threshold is drawn at, just above and just below the destination's size.
void StreamingFollowsTheOptions() {
  const bool kernel_shaped = *rc::gen::arbitrary<bool>();
  const ShapeWithLayout shape =
      kernel_shaped ? *gen_from_recipe([](RcChoices& c) { return make_kernel_layout(c, 4096); }) : *gen_layout();
  const bool pack = *rc::gen::arbitrary<bool>();
  const int64_t bytes = pack ? spec::byte_size(shape) : spec::dense_byte_size(shape);
  const int64_t stream_bytes = std::max<int64_t>(0, bytes + *rc::gen::element<int64_t>(-1, 0, 1));
  const uintptr_t misaligned = *rc::gen::element<uintptr_t>(0, 0, 1, 16, 32, 63);
  const std::vector<LeafCall> calls =
      calls_of(shape, pack, {.threads = 1, .stream_bytes = stream_bytes}, 4096 + misaligned);
  int64_t tiled = 1;
  for (const int64_t d : spec::tiled_shape(shape)) tiled *= d;
  const bool padded = tiled != spec::element_count(shape);
  const bool asked = bytes >= stream_bytes && misaligned == 0;
  RC_TAG(asked ? "large and aligned" : bytes < stream_bytes ? "below stream_bytes" : "misaligned");
  RC_TAG(padded ? "padding inside the tiles" : "no padding inside the tiles");
  for (size_t i = 0; i < calls.size(); ++i) {
    const bool expected = asked && (!padded || calls[i].kind == Kind::kPanel);
    if (calls[i].stream != expected) {
      RC_FAIL(describe(calls[i], i) + (expected ? "; expected streamed" : "; expected cached") + " (destination " +
              std::to_string(bytes) + " bytes, stream_bytes " + std::to_string(stream_bytes) + ", " +
              std::to_string(misaligned) + " bytes past a line)");
    }
  }
}

// 14 (the transposing leaf). 32-bit column-major tiles of 2, 4 or 8
// columns (less than a line of each dense row), more than one tile each
// way, are moved by the transposing panel whatever their row count. An
// untiled column-major f32 matrix, alone or under a batch dim, is not: it
// is one SIMD transpose (the block leaf, kernels.h transpose_elements) per
// matrix, whatever its size. Nor is a batch of them read from a strided
// view whose dense columns are not adjacent, even where the batch dim's
// stride equals the column count, as a tile digit's would.
void TransposingLeafFollowsItsRule() {
  const int form = *rc::gen::element(0, 1, 2);  // untiled, tiled, a strided view
  const bool pack = *rc::gen::arbitrary<bool>();
  if (form == 2) {
    const int64_t batch = *rc::gen::inRange<int64_t>(2, 5);
    const int64_t rows = *rc::gen::inRange<int64_t>(2, 40);
    const int64_t cols = *rc::gen::inRange<int64_t>(2, 40);
    // f32[batch,rows,cols]{1,2,0}: batch, then columns, then rows
    // physically innermost. Dense element strides: batch `cols` (a gap
    // after each element when cols > 1), columns cols*batch, rows
    // cols*batch*cols.
    const std::vector<int64_t> strides = {4 * cols, 4 * cols * batch * cols, 4 * cols * batch};
    const ShapeWithLayout shape = parse("f32[" + std::to_string(batch) + "," + std::to_string(rows) + "," +
                                        std::to_string(cols) + "]{1,2,0}");
    const std::vector<LeafCall> calls = calls_of(shape, pack, {.threads = 1}, 4096, strides);
    for (size_t i = 0; i < calls.size(); ++i) {
      if (calls[i].kind == Kind::kTransposePanel) RC_FAIL(describe(calls[i], i) + "; columns not adjacent");
    }
    return;
  }
  if (form == 0) {
    const int64_t rows = edge_or_any(2, 600, {2, 15, 16, 17, 255, 256, 257, 513});
    const int64_t cols = edge_or_any(2, 600, {2, 15, 16, 17, 255, 256, 257, 513});
    const int64_t batch = *rc::gen::element<int64_t>(1, 1, 2, 3);
    const std::string dims = std::to_string(rows) + "," + std::to_string(cols);
    const std::vector<LeafCall> calls =
        calls_of(parse(batch == 1 ? "f32[" + dims + "]{0,1}" : "f32[" + std::to_string(batch) + "," + dims + "]{1,2,0}"),
                 pack, {.threads = 1});
    RC_TAG(batch == 1 ? "one matrix" : "under a batch dim");
    for (size_t i = 0; i < calls.size(); ++i) {
      const LeafCall& call = calls[i];
      if (call.kind != Kind::kTranspose) RC_FAIL(describe(call, i) + "; expected the SIMD transpose");
      if (call.rows * call.columns != rows * cols) RC_FAIL(describe(call, i) + "; expected the whole matrix");
    }
    RC_ASSERT(static_cast<int64_t>(calls.size()) == batch);
    return;
  }
  const int64_t t1 = *rc::gen::element<int64_t>(2, 4, 8);
  const int64_t t0 = *rc::gen::element<int64_t>(2, 4, 8, 16, 128);
  // More than one tile each way: one tile row or column is, in memory, an
  // untiled transposed matrix (above).
  const int64_t rows = t0 * *rc::gen::inRange<int64_t>(2, 5);
  const int64_t cols = t1 * *rc::gen::inRange<int64_t>(2, 5);
  const std::vector<LeafCall> calls =
      calls_of(parse("f32[" + std::to_string(rows) + "," + std::to_string(cols) + "]{0,1:T(" + std::to_string(t1) +
                     "," + std::to_string(t0) + ")}"),
               pack, {.threads = 1});
  for (size_t i = 0; i < calls.size(); ++i) {
    if (calls[i].kind != Kind::kTransposePanel) RC_FAIL(describe(calls[i], i) + "; expected the transposing panel");
  }
}

// 14 (the outer digits' order). Column-major tiles of t1 columns: where a
// tile holds less than a cache line of each dense row (t1 elements of
// fewer than 64 bytes), the calls run through the dense array in order, so
// that the tiles after it read the rest of those lines while they are
// cached; otherwise through the physical buffer in order.
void OuterOrderFollowsTheLeaf() {
  const int64_t nb = *rc::gen::element<int64_t>(4, 2, 1);
  const std::string type = nb == 4 ? "f32" : nb == 2 ? "bf16" : "s8";
  const int64_t t1 = *rc::gen::element<int64_t>(2, 4, 8, 16, 32, 64, 128);
  const int64_t t0 = *rc::gen::element<int64_t>(8, 128);
  const int64_t rows = t0 * *rc::gen::inRange<int64_t>(1, 4);
  const int64_t cols = t1 * *rc::gen::inRange<int64_t>(1, 4);
  const std::vector<LeafCall> calls =
      calls_of(parse(type + "[" + std::to_string(rows) + "," + std::to_string(cols) + "]{0,1:T(" +
                     std::to_string(t1) + "," + std::to_string(t0) + ")}"),
               *rc::gen::arbitrary<bool>(), {.threads = 1});
  const bool dense_order = t1 * nb < 64;
  RC_TAG(dense_order ? "less than a line of each row: dense order" : "physical order");
  for (size_t i = 1; i < calls.size(); ++i) {
    const bool ordered = dense_order ? calls[i].dense > calls[i - 1].dense : calls[i].phys > calls[i - 1].phys;
    if (!ordered) {
      RC_FAIL(describe(calls[i - 1], i - 1) + "\nthen " + describe(calls[i], i) + "\nexpected " +
              (dense_order ? "dense" : "physical") + " order");
    }
  }
}

// 14 (block copies). A block of whole-byte elements that no row interleave
// takes is copied column after column exactly where each column is one run
// of dense memory (its rows adjacent) or the element is of a width no other
// loop moves (16 bytes); otherwise by the 4x4 transposes or element by
// element. Only sub-byte elements take the sub-byte loop. Layouts in any
// dim order of the dense array (a strided view), so that rows are adjacent
// in some blocks and not in others.
void BlockCopiesFollowTheirRules() {
  const ShapeWithLayout shape = *gen_layout();
  const int64_t rank = shape.rank();
  const int64_t nb = shape.dense_element_bytes();
  std::vector<int64_t> order(rank);
  for (int64_t l = 0; l < rank; ++l) order[l] = rank - 1 - l;  // innermost first: row-major
  if (rank > 1 && *rc::gen::arbitrary<bool>()) {
    const size_t a = *rc::gen::inRange<size_t>(0, rank), b = *rc::gen::inRange<size_t>(0, rank);
    std::swap(order[a], order[b]);
  }
  std::vector<int64_t> strides(rank);
  int64_t reach = nb;
  for (const int64_t l : order) {
    strides[l] = reach;
    reach *= std::max<int64_t>(shape.dims[l], 1);
  }
  const bool pack = *rc::gen::arbitrary<bool>();
  const std::vector<LeafCall> calls = calls_of(shape, pack, {.threads = 1}, 4096, strides);
  const bool byte_elements = shape.element_bits() % 8 == 0;
  const bool fixed_width = nb == 1 || nb == 2 || nb == 4 || nb == 8;
  for (size_t i = 0; i < calls.size(); ++i) {
    const LeafCall& call = calls[i];
    if (call.kind == Kind::kRun || call.kind == Kind::kInterleave || call.kind == Kind::kPanel ||
        call.kind == Kind::kTransposePanel) {
      continue;
    }
    if (!byte_elements) {
      if (call.kind != Kind::kBitBlock) RC_FAIL(describe(call, i) + "; expected the sub-byte loop");
      continue;
    }
    const bool columns = call.row_stride == 1 || !fixed_width;
    // The SIMD transposes take every block whose dense columns are
    // adjacent; element by element only with strided columns.
    const bool simd = call.column_stride == 1;
    const Kind expected = columns ? Kind::kColumns : simd ? Kind::kTranspose : Kind::kScalarBlock;
    if (call.kind != expected) {
      RC_FAIL(describe(call, i) + "; " + std::to_string(nb) + "-byte elements, expected " +
              (columns ? "columns" : simd ? "the SIMD transposes" : "a scalar block"));
    }
  }
}

// 14 (folding). Row-major tiles of t0 > 1 rows whose rows are 2, 4 or 8
// bytes (t1 elements of nb bytes) move each tile row as one element of
// t1*nb bytes, where no padding cuts a tile row (the columns a whole number
// of tiles) and every dense row starts a whole number of tile rows into the
// array (a strided view's row stride); every other call moves elements of
// nb bytes. Ragged rows do not stop it.
void ShortTileRowsFoldIntoOneElement() {
  const int64_t nb = *rc::gen::element<int64_t>(1, 2, 4, 8);
  const std::string type = nb == 1 ? "s8" : nb == 2 ? "bf16" : nb == 4 ? "f32" : "f64";
  const int64_t t1 = *rc::gen::element<int64_t>(1, 2, 3, 4, 8, 16);
  const int64_t t0 = *rc::gen::element<int64_t>(2, 4, 8);
  const int64_t rows = t0 * *rc::gen::inRange<int64_t>(1, 4) + *rc::gen::element<int64_t>(0, 0, 1);
  // At least two tiles across, so that no tile row is a whole dense row.
  const int64_t cols = t1 * *rc::gen::inRange<int64_t>(2, 5) +
                       (t1 > 1 && *rc::gen::element(false, false, true) ? *rc::gen::inRange<int64_t>(1, t1) : 0);
  const int64_t pad = *rc::gen::element<int64_t>(0, 0, 1, t1);  // the dense row stride is cols + pad
  const bool pack = *rc::gen::arbitrary<bool>();
  const ShapeWithLayout shape = parse(type + "[" + std::to_string(rows) + "," + std::to_string(cols) + "]{1,0:T(" +
                                      std::to_string(t0) + "," + std::to_string(t1) + ")}");
  const std::vector<LeafCall> calls =
      calls_of(shape, pack, {.threads = 1}, 4096,
               pad == 0 ? std::vector<int64_t>{} : std::vector<int64_t>{(cols + pad) * nb, nb});
  const int64_t width = t1 * nb;
  const bool short_rows = width == 2 || width == 4 || width == 8;
  const bool folds = short_rows && cols % t1 == 0 && (cols + pad) % t1 == 0;
  RC_TAG(folds ? "folded" : !short_rows ? "rows not 2, 4 or 8 bytes" : cols % t1 != 0 ? "ragged columns" : "rows off a tile row");
  for (size_t i = 0; i < calls.size(); ++i) {
    if (calls[i].element_bytes != (folds ? width : nb)) {
      RC_FAIL(describe(calls[i], i) + "; moves elements of " + std::to_string(calls[i].element_bytes) +
              " bytes, expected " + std::to_string(folds ? width : nb) + " (tile rows of " + std::to_string(width) +
              " bytes, dense row stride " + std::to_string(cols + pad) + " elements)");
    }
  }
}

std::vector<PropertyInfo> properties() {
  return {
      {"ImplProperties", "StreamingFollowsTheOptions", "p14_streaming",
       "14. non-temporal stores asked for exactly from stream_bytes on, into a line-aligned destination, without padding inside the tiles unless a panel writes them", &StreamingFollowsTheOptions},
      {"ImplProperties", "TransposingLeafFollowsItsRule", "p14_transposing_leaf",
       "14. narrow 32-bit column-major tiles go through the transposing panel; an untiled transposed f32 matrix is one SIMD transpose", &TransposingLeafFollowsItsRule},
      {"ImplProperties", "OuterOrderFollowsTheLeaf", "p14_outer_order",
       "14. tiles of less than a line of each dense row are visited in dense order, others in physical order", &OuterOrderFollowsTheLeaf},
      {"ImplProperties", "BlockCopiesFollowTheirRules", "p14_block_copies",
       "14. blocks are copied column after column exactly where their rows are adjacent in the dense array or no other loop moves the element, else transposed in SIMD blocks where their columns are adjacent", &BlockCopiesFollowTheirRules},
      {"ImplProperties", "ShortTileRowsFoldIntoOneElement", "p14_fold",
       "14. tile rows of 2, 4 or 8 bytes that no padding cuts, in a dense array whose rows start on them, move as one wider element", &ShortTileRowsFoldIntoOneElement},
  };
}

}  // namespace
}  // namespace speed

std::vector<PropertyInfo> speed_choice_properties() { return speed::properties(); }

}  // namespace tilecheck::props
