// tilecheck._tilecheck: the Python extension (pybind11) behind the package
// `tilecheck` (python/tilecheck/__init__.py re-exports it; docs/PYTHON.md is
// its guide). A thin layer: parsing and the spec's validation (spec/), the
// fast pack, unpack, relayout and batch index (impl/, through plans built
// once per Layout), the dtype of each dense array (files/npy.h, the table the
// .npy files use), the proofs (proofs/), the layout generators (gen/), the
// drawing (draw/) and the golden vectors (vectors/); the gate over another
// implementation is python/gate.cc.
//
// Every tilecheck::Error (but the gate's, python/gate.cc) becomes
// tilecheck.LayoutError, a ValueError, with the message the command line
// prints; wrong arrays are ValueError or TypeError. The GIL is released while buffers are packed, unpacked or
// relaid and while batches are indexed.
#include <pybind11/functional.h>
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "draw/draw.h"
#include "files/npy.h"
#include <tilecheck/gen/profiles.h>
#include <tilecheck/gen/sweep.h>
#include "proofs/obligations.h"
#include "vectors/generate.h"
#include <tilecheck/impl/plan.h>
#include <tilecheck/spec/catalog.h>
#include <tilecheck/spec/semantics.h>
#include <tilecheck/spec/syntax.h>

namespace py = pybind11;

namespace tilecheck::python {
namespace {

// A validated layout with the plans the fast calls run, built once.
class PyLayout {
 public:
  explicit PyLayout(ShapeWithLayout shape)
      : shape_(std::move(shape)),
        text_(print_shape(shape_)),
        plan_(shape_),
        dtype_(py::dtype(files::dense_dtype(shape_))) {}

  // As the command line reads a LAYOUT argument, with its message.
  static PyLayout parse(const std::string& text) { return PyLayout(spec::parse_layout(text)); }

  const ShapeWithLayout& shape() const { return shape_; }
  const std::string& text() const { return text_; }
  const impl::PackPlan& plan() const { return plan_; }
  const impl::IndexPlan& index() const { return plan_.index(); }
  // The numpy dtype of the dense array (files/npy.h's table), made once:
  // a small pack is cheaper than parsing a dtype string.
  const py::dtype& dtype() const { return dtype_; }

 private:
  ShapeWithLayout shape_;
  std::string text_;
  impl::PackPlan plan_;
  py::dtype dtype_;
};

py::tuple to_tuple(const std::vector<int64_t>& values) { return py::cast(values); }

py::object tile_entry(int64_t entry) {
  return entry == kCombineDim ? py::object(py::str("*")) : py::object(py::int_(entry));
}

py::tuple tiles_of(const ShapeWithLayout& shape) {
  py::list tiles;
  for (const Tile& tile : shape.layout.tiles) {
    py::list entries;
    for (const int64_t e : tile.dims) entries.append(tile_entry(e));
    tiles.append(py::tuple(entries));
  }
  return py::tuple(tiles);
}

py::dtype dense_dtype(const PyLayout& l) { return l.dtype(); }

std::string name_of(const py::dtype& d) { return py::str(py::handle(d)).cast<std::string>(); }

// Layout.from_fields: the layout from its parts, in jax's vocabulary or
// XLA's. jax orders dims major-to-minor, XLA minor-to-major: exactly one of
// the two may be given (neither: row-major).
PyLayout from_fields(const std::vector<int64_t>& dims, const std::string& dtype,
                   std::optional<std::vector<int64_t>> major_to_minor,
                   std::optional<std::vector<int64_t>> minor_to_major,
                   const std::vector<std::vector<py::object>>& tiling,
                   int64_t sub_byte_element_size_in_bits, int64_t tail_padding_alignment,
                   int64_t memory_space) {
  ShapeWithLayout shape;
  const std::optional<ElementType> type = element_type_from_name(dtype);
  if (!type) throw Error("unknown element type '" + dtype + "' (XLA's names: f32, bf16, s4, pred, ...)");
  shape.type = *type;
  shape.dims = dims;
  if (major_to_minor && minor_to_major) {
    throw Error("give major_to_minor (jax's order) or minor_to_major (XLA's), not both");
  }
  if (major_to_minor) {
    shape.layout.minor_to_major.assign(major_to_minor->rbegin(), major_to_minor->rend());
  } else if (minor_to_major) {
    shape.layout.minor_to_major = *minor_to_major;
  } else {
    shape.layout.minor_to_major = default_layout(static_cast<int64_t>(dims.size())).minor_to_major;
  }
  for (const std::vector<py::object>& entries : tiling) {
    Tile tile;
    for (const py::object& e : entries) {
      if (py::isinstance<py::str>(e) && e.cast<std::string>() == "*") {
        tile.dims.push_back(kCombineDim);
      } else if (py::isinstance<py::int_>(e) && !py::isinstance<py::bool_>(e)) {
        tile.dims.push_back(e.cast<int64_t>());
      } else {
        throw Error("a tile entry must be an int or '*', not " + py::repr(e).cast<std::string>());
      }
    }
    shape.layout.tiles.push_back(std::move(tile));
  }
  // jax's 0 means "the type's own width", as XLA's proto field does.
  if (sub_byte_element_size_in_bits != 0) shape.layout.element_size_bits = sub_byte_element_size_in_bits;
  if (tail_padding_alignment != 1) shape.layout.tail_padding_alignment = tail_padding_alignment;
  if (memory_space != 0) shape.layout.memory_space = memory_space;
  try {
    spec::validate(shape);
  } catch (const Error& e) {
    throw Error("layout " + print_shape(shape) + ": " + e.what());
  }
  return PyLayout(std::move(shape));
}

// An integer array as int64, C-contiguous; anything else is a TypeError.
py::array_t<int64_t, py::array::c_style> int64_array(const py::object& values, const char* what) {
  py::array a = py::array::ensure(values);
  if (!a) throw py::type_error(std::string(what) + " must be an array of integers");
  const char kind = a.dtype().kind();
  if (a.size() > 0 && kind != 'i' && kind != 'u') {
    throw py::type_error(std::string(what) + " must be integers, not " +
                         name_of(a.dtype()));
  }
  return py::array_t<int64_t, py::array::c_style | py::array::forcecast>::ensure(a);
}

// linear_index(element) -> int, linear_index(elements of shape (n, rank)) ->
// int64 array of n.
py::object linear_index(const PyLayout& l, const py::object& elements) {
  const int64_t rank = l.index().rank();
  py::array_t<int64_t, py::array::c_style> a = int64_array(elements, "elements");
  if (a.ndim() <= 1) {  // one element (a bare integer: the coordinate of a rank-1 element)
    if (a.size() != rank) {
      throw py::value_error("an element of " + l.text() + " has " + std::to_string(rank) +
                            " coordinates, not " + std::to_string(a.size()));
    }
    std::vector<int64_t> e(a.data(), a.data() + a.size());
    int64_t out = 0;
    l.index().linear_index_batch_checked(e, std::span<int64_t>(&out, 1));
    return py::int_(out);
  }
  if (a.ndim() != 2 || a.shape(1) != rank) {
    throw py::value_error("elements of " + l.text() + " must have the shape (n, " +
                          std::to_string(rank) + "), not " +
                          files::python_tuple(std::vector<int64_t>(a.shape(), a.shape() + a.ndim())));
  }
  const size_t n = static_cast<size_t>(a.shape(0));
  py::array_t<int64_t> out(static_cast<py::ssize_t>(n));
  const std::span<const int64_t> in(a.data(), n * static_cast<size_t>(rank));
  const std::span<int64_t> result(out.mutable_data(), n);
  {
    py::gil_scoped_release release;
    l.index().linear_index_batch_checked(in, result);
  }
  return out;
}

// delinearize(position) -> tuple or None (padding); delinearize(positions of
// shape (n,)) -> int64 array (n, rank), a row of -1 for padding.
py::object delinearize(const PyLayout& l, const py::object& positions) {
  const int64_t rank = l.index().rank();
  py::array_t<int64_t, py::array::c_style> a = int64_array(positions, "positions");
  if (a.ndim() == 0) {
    std::vector<int64_t> e(static_cast<size_t>(rank));
    if (!l.index().delinearize(*a.data(), e)) return py::none();
    return to_tuple(e);
  }
  if (a.ndim() != 1) throw py::value_error("positions must be one position or a 1-D array of them");
  const size_t n = static_cast<size_t>(a.shape(0));
  py::array_t<int64_t> out({static_cast<py::ssize_t>(n), static_cast<py::ssize_t>(rank)});
  const std::span<const int64_t> in(a.data(), n);
  const std::span<int64_t> rows(out.mutable_data(), n * static_cast<size_t>(rank));
  {
    py::gil_scoped_release release;
    l.index().delinearize_batch(in, rows);
  }
  return out;
}

// Whether every element's bits above `bits` are zero (unsigned) or copies of
// bit bits-1 (signed): the values a `bits`-wide element can hold.
bool element_fits(const uint8_t* e, int64_t bytes, int64_t bits, bool is_signed) {
  const bool negative = is_signed && ((e[(bits - 1) / 8] >> ((bits - 1) % 8)) & 1);
  const uint8_t fill = negative ? 0xff : 0x00;
  int64_t b = bits / 8;
  if (bits % 8 != 0) {
    const uint8_t high = static_cast<uint8_t>(0xff << (bits % 8));
    if ((e[b] & high) != (fill & high)) return false;
    ++b;
  }
  for (; b < bytes; ++b) {
    if (e[b] != fill) return false;
  }
  return true;
}

// Where element_fits may first fail: a branch-free pass over one-byte
// elements (s4, u4, s2, ... arrays can be large) finds whether any does;
// wider elements are left to the loop.
py::ssize_t first_misfit(const uint8_t* data, py::ssize_t n, int64_t bytes, int64_t bits,
                         bool is_signed) {
  if (bytes != 1) return 0;
  const int shift = static_cast<int>(8 - bits);
  uint8_t any = 0;
  for (py::ssize_t i = 0; i < n; ++i) {
    const uint8_t v = data[i];
    const uint8_t canonical = is_signed ? static_cast<uint8_t>(static_cast<int8_t>(v << shift) >> shift)
                                        : static_cast<uint8_t>(static_cast<uint8_t>(v << shift) >> shift);
    any |= v ^ canonical;
  }
  return any ? 0 : n;
}

std::string what_dtype_holds(const PyLayout& l) {
  const ShapeWithLayout& s = l.shape();
  if (s.type == ElementType::kBF16 && s.element_bits() == 16) return " (bf16 as its uint16 bit patterns: arr.view(np.uint16))";
  if (s.element_bits() < 8 * s.dense_element_bytes() && s.type != ElementType::kPred) {
    return " (one " + std::to_string(s.element_bits()) + "-bit value per " +
           std::to_string(s.dense_element_bytes()) + "-byte element)";
  }
  return "";
}

// The byte strides of a numpy array, when a plan can read or write it in
// place (impl::PackPlan's strided form): none negative, each a multiple of
// the element size.
std::optional<std::vector<int64_t>> view_strides(const py::array& a) {
  std::vector<int64_t> strides;
  for (py::ssize_t d = 0; d < a.ndim(); ++d) {
    if (a.strides(d) < 0 || a.strides(d) % a.itemsize() != 0) return std::nullopt;
    strides.push_back(a.strides(d));
  }
  return strides;
}

// The plan for a dense array: the layout's own when it is C-contiguous,
// else one for its strides.
struct DensePlan {
  std::optional<impl::PackPlan> strided;
  const impl::PackPlan* plan = nullptr;
  DensePlan(const PyLayout& l, const py::array& dense) {
    if (dense.flags() & py::array::c_style) {
      plan = &l.plan();
    } else {
      strided.emplace(l.shape(), *view_strides(dense));
      plan = &*strided;
    }
  }
  std::span<const uint8_t> in(const py::array& dense) const {
    return {static_cast<const uint8_t*>(dense.data()), static_cast<size_t>(plan->dense_span_bytes())};
  }
};

// The dense array of `array` for `l`: its dtype and shape checked, values
// checked to fit; read in place when its strides allow (view_strides) and
// no values need checking, else made C-contiguous (a copy only when it is
// not).
py::array dense_of(const PyLayout& l, const py::object& array, const char* op) {
  py::array a = py::array::ensure(array);
  if (!a) throw py::type_error(std::string(op) + ": expected a numpy array");
  const py::dtype expected = dense_dtype(l);
  if (!a.dtype().equal(expected)) {
    throw py::value_error(std::string(op) + " of " + l.text() + ": the array's dtype is " +
                          name_of(a.dtype()) + ", the layout's dense dtype is " + name_of(expected) +
                          what_dtype_holds(l));
  }
  const std::vector<int64_t> shape(a.shape(), a.shape() + a.ndim());
  if (shape != l.shape().dims) {
    throw py::value_error(std::string(op) + " of " + l.text() + ": the array's shape is " +
                          files::python_tuple(shape) + ", the layout's dims are " +
                          files::python_tuple(l.shape().dims));
  }
  const int64_t bits = l.shape().element_bits(), bytes = l.shape().dense_element_bytes();
  const char kind = expected.kind();
  const bool check_values = bits < 8 * bytes && (kind == 'i' || kind == 'u');
  if (!check_values && view_strides(a)) return a;
  py::array c = py::array::ensure(a, py::array::c_style);
  if (check_values) {
    const auto* data = static_cast<const uint8_t*>(c.data());
    const bool is_signed = kind == 'i';
    for (py::ssize_t i = first_misfit(data, c.size(), bytes, bits, is_signed); i < c.size(); ++i) {
      if (!element_fits(data + i * bytes, bytes, bits, is_signed)) {
        const int64_t lo = is_signed ? -(int64_t{1} << (bits - 1)) : 0;
        const int64_t hi = is_signed ? (int64_t{1} << (bits - 1)) - 1 : (int64_t{1} << bits) - 1;
        throw py::value_error(std::string(op) + " of " + l.text() + ": element " +
                              std::to_string(i) + " (row-major) does not fit in " +
                              std::to_string(bits) + " bits" +
                              (bits < 63 ? ": the values are " + std::to_string(lo) + ".." +
                                               std::to_string(hi)
                                         : std::string()));
      }
    }
  }
  return c;
}

// The array a result is written to: `out` when given (checked: a writable,
// C-contiguous numpy array of `dtype` and `shape`), else a new one.
py::array result_array(const py::object& out, const py::dtype& dtype,
                       const std::vector<int64_t>& shape, const char* op, bool views = false) {
  if (out.is_none()) return py::array(dtype, shape);
  if (!py::isinstance<py::array>(out)) throw py::type_error(std::string(op) + ": out must be a numpy array");
  py::array a = py::reinterpret_borrow<py::array>(out);
  if (!a.dtype().equal(dtype) || std::vector<int64_t>(a.shape(), a.shape() + a.ndim()) != shape) {
    throw py::value_error(std::string(op) + ": out must have dtype " + name_of(dtype) + " and shape " +
                          files::python_tuple(shape) + ", not " + name_of(a.dtype()) + " and " +
                          files::python_tuple(std::vector<int64_t>(a.shape(), a.shape() + a.ndim())));
  }
  if (!a.writeable()) throw py::value_error(std::string(op) + ": out must be writable");
  if (!(a.flags() & py::array::c_style) && !(views && view_strides(a))) {
    throw py::value_error(std::string(op) + (views ? ": out must have non-negative strides" : ": out must be C-contiguous"));
  }
  return a;
}

// A pack's arrays, checked, and the spans the plan reads and writes.
struct PackCall {
  py::array dense, result;
  DensePlan plan;
  std::span<const uint8_t> in;
  std::span<uint8_t> physical;
  PackCall(const py::object& array, const PyLayout& l, const py::object& out)
      : dense(dense_of(l, array, "pack")),
        result(result_array(out, py::dtype::of<uint8_t>(), {l.index().byte_size()}, "pack")),
        plan(l, dense),
        in(plan.in(dense)),
        physical(static_cast<uint8_t*>(result.mutable_data()), static_cast<size_t>(l.index().byte_size())) {}
};

py::array pack(const py::object& array, const PyLayout& l, const py::object& out) {
  PackCall c(array, l, out);
  {
    py::gil_scoped_release release;
    c.plan.plan->pack(c.in, c.physical);
  }
  return c.result;
}

// The bytes of a physical buffer of `l`: any C-contiguous buffer of exactly
// byte_size bytes (bytes, bytearray, memoryview, a numpy array).
py::buffer_info physical_of(const PyLayout& l, const py::object& buffer, const char* op) {
  if (!py::isinstance<py::buffer>(buffer)) {
    throw py::type_error(std::string(op) + ": expected a buffer (bytes, bytearray, or a numpy array)");
  }
  py::buffer_info info = py::reinterpret_borrow<py::buffer>(buffer).request();
  py::ssize_t expected_stride = info.itemsize;
  for (py::ssize_t d = info.ndim; d-- > 0;) {
    if (info.shape[d] > 1 && info.strides[d] != expected_stride) {
      throw py::value_error(std::string(op) + ": the buffer is not contiguous; pass np.ascontiguousarray(buffer)");
    }
    expected_stride *= info.shape[d];
  }
  const int64_t bytes = static_cast<int64_t>(info.size * info.itemsize);
  if (bytes != l.index().byte_size()) {
    throw py::value_error(std::string(op) + " of " + l.text() + ": the buffer has " +
                          std::to_string(bytes) + " bytes, the layout's physical buffer " +
                          std::to_string(l.index().byte_size()));
  }
  return info;
}

py::array unpack(const py::object& buffer, const PyLayout& l, const py::object& out) {
  const py::buffer_info info = physical_of(l, buffer, "unpack");
  py::array result = result_array(out, dense_dtype(l), l.shape().dims, "unpack", true);
  const DensePlan plan(l, result);
  const std::span<const uint8_t> in(static_cast<const uint8_t*>(info.ptr),
                                    static_cast<size_t>(l.index().byte_size()));
  const std::span<uint8_t> dense(static_cast<uint8_t*>(result.mutable_data()),
                                 static_cast<size_t>(plan.plan->dense_span_bytes()));
  {
    py::gil_scoped_release release;
    plan.plan->unpack(in, dense);
  }
  return result;
}

py::array relayout(const py::object& buffer, const PyLayout& from, const PyLayout& to,
                   const py::object& out) {
  const impl::RelayoutPlan plan(from.shape(), to.shape());
  const py::buffer_info info = physical_of(from, buffer, "relayout");
  py::array result = result_array(out, py::dtype::of<uint8_t>(), {to.index().byte_size()}, "relayout");
  const std::span<const uint8_t> in(static_cast<const uint8_t*>(info.ptr),
                                    static_cast<size_t>(from.index().byte_size()));
  const std::span<uint8_t> dst(static_cast<uint8_t*>(result.mutable_data()),
                               static_cast<size_t>(to.index().byte_size()));
  {
    py::gil_scoped_release release;
    plan.run(in, dst);
  }
  return result;
}

// The C++ call's time, for the Python package's benchmark (bench/python_pack.py):
// seconds per call of `calls` packs of `array` into `out` in a row, with no
// Python in between.
double time_pack(const py::object& array, const PyLayout& l, const py::object& out, int calls) {
  const PackCall c(array, l, out);
  py::gil_scoped_release release;
  const auto t0 = std::chrono::steady_clock::now();
  for (int k = 0; k < calls; ++k) c.plan.plan->pack(c.in, c.physical);
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() / std::max(calls, 1);
}

// prove(layout or text): the obligations `tilecheck prove` checks.
py::dict prove(const py::object& layout, unsigned timeout_ms) {
  ShapeWithLayout shape;
  if (py::isinstance<PyLayout>(layout)) {
    shape = layout.cast<const PyLayout&>().shape();
  } else {
    const std::string text = layout.cast<std::string>();
    try {
      shape = parse_shape(text);
    } catch (const Error& e) {
      throw Error("layout '" + text + "': " + e.what());
    }
  }
  std::vector<proofs::Outcome> outcomes;
  {
    py::gil_scoped_release release;
    proofs::Prover prover(proofs::ProofOptions{timeout_ms, ""});
    outcomes = prover.prove_layout(shape);
  }
  py::list obligations;
  bool proved = true;
  for (const proofs::Outcome& o : outcomes) {
    py::dict d;
    d["name"] = o.name;
    d["title"] = o.title;
    d["result"] = proofs::verdict_name(o.verdict);
    d["ms"] = o.ms;
    d["detail"] = o.detail;
    if (o.counterexample) {
      d["counterexample"] = o.counterexample->explanation;
      d["counterexample_dims"] = to_tuple(o.counterexample->dims);
    }
    proved = proved && o.verdict == proofs::Verdict::kProved;
    obligations.append(d);
  }
  py::dict result;
  result["layout"] = print_shape(shape);
  result["proved"] = proved;
  result["obligations"] = obligations;
  return result;
}

// The layout recipe's choices, each asked of a Python callable
// choose(lo, hi) -> int in [lo, hi]: hypothesis draws them, so it shrinks a
// layout by shrinking its choices towards the low ends, which the recipe
// maps to the simplest layouts.
class CallbackChoices : public gen::PicksFromRange<CallbackChoices> {
 public:
  explicit CallbackChoices(const std::function<int64_t(int64_t, int64_t)>& choose) : choose_(choose) {}
  int64_t in_range(int64_t lo, int64_t hi) {
    if (hi <= lo) return lo;
    const int64_t v = choose_(lo, hi);
    if (v < lo || v > hi) {
      throw Error("choose(" + std::to_string(lo) + ", " + std::to_string(hi) + ") returned " +
                  std::to_string(v));
    }
    return v;
  }

 private:
  const std::function<int64_t(int64_t, int64_t)>& choose_;
};

PyLayout generate(const std::string& profile_name,
                const std::function<int64_t(int64_t, int64_t)>& choose) {
  const std::optional<gen::Profile> profile = gen::profile_from_name(profile_name);
  if (!profile) throw Error("unknown profile '" + profile_name + "' (general, tpu, gpu)");
  CallbackChoices choices(choose);
  return PyLayout(gen::make_profile_layout(choices, *profile,
                                         gen::profile_limits(*profile, gen::kExhaustiveLimits)));
}

}  // namespace

void add_gate(py::module_& m);  // python/gate.cc

}  // namespace tilecheck::python

PYBIND11_MODULE(_tilecheck, m) {
  using namespace tilecheck;
  using namespace tilecheck::python;
  m.doc() = "The extension behind the package tilecheck; import tilecheck instead.";
  py::register_exception<Error>(m, "LayoutError", PyExc_ValueError);

  py::class_<PyLayout>(m, "Layout",
                     "A shape with its XLA layout, validated, with the plans that pack, unpack "
                     "and index it built once.")
      .def_static("parse", &PyLayout::parse, py::arg("text"),
                  "Layout.parse('bf16[16,256]{1,0:T(8,128)(2,1)}'): the layout as XLA prints it. "
                  "Raises LayoutError (a ValueError) saying what is wrong and where.")
      .def_static("from_fields", &from_fields, py::arg("dims"), py::arg("dtype"), py::kw_only(),
                  py::arg("major_to_minor") = py::none(), py::arg("minor_to_major") = py::none(),
                  py::arg("tiling") = std::vector<std::vector<py::object>>{},
                  py::arg("sub_byte_element_size_in_bits") = 0,
                  py::arg("tail_padding_alignment") = 1, py::arg("memory_space") = 0,
                  "The layout from its parts. major_to_minor is jax's order of the dims (its "
                  "Layout.major_to_minor); minor_to_major is XLA's (the numbers in braces): give "
                  "one of them, or neither for row-major. tiling is the tiles, outermost first, "
                  "each a tuple of ints or '*' (jax's _tiling); sub_byte_element_size_in_bits is "
                  "E(n), 0 for the type's own width (jax's _sub_byte_element_size_in_bits). "
                  "dtype is XLA's name of the element type ('f32', 'bf16', 's4', 'pred').")
      .def("__str__", &PyLayout::text, "The canonical text, as XLA prints it.")
      .def("__repr__", [](const PyLayout& l) { return "Layout.parse('" + l.text() + "')"; })
      .def("__eq__", [](const PyLayout& a, const PyLayout& b) { return a.text() == b.text(); })
      .def("__hash__", [](const PyLayout& l) { return py::hash(py::str(l.text())); })
      .def_property_readonly("element_type", [](const PyLayout& l) { return std::string(element_type_name(l.shape().type)); })
      .def_property_readonly("element_bits", [](const PyLayout& l) { return l.shape().element_bits(); })
      .def_property_readonly("dims", [](const PyLayout& l) { return to_tuple(l.shape().dims); })
      .def_property_readonly("rank", [](const PyLayout& l) { return l.shape().rank(); })
      .def_property_readonly("minor_to_major", [](const PyLayout& l) { return to_tuple(l.shape().layout.minor_to_major); })
      .def_property_readonly("major_to_minor", [](const PyLayout& l) {
        const std::vector<int64_t>& m2m = l.shape().layout.minor_to_major;
        return to_tuple(std::vector<int64_t>(m2m.rbegin(), m2m.rend()));
      })
      .def_property_readonly("tiles", [](const PyLayout& l) { return tiles_of(l.shape()); })
      .def_property_readonly("element_size_bits", [](const PyLayout& l) -> py::object {
        const std::optional<int64_t>& e = l.shape().layout.element_size_bits;
        return e ? py::object(py::int_(*e)) : py::object(py::none());
      })
      .def_property_readonly("tail_padding_alignment", [](const PyLayout& l) { return l.shape().layout.tail_padding_alignment.value_or(1); })
      .def_property_readonly("memory_space", [](const PyLayout& l) { return l.shape().layout.memory_space.value_or(0); })
      .def_property_readonly("element_count", [](const PyLayout& l) { return l.index().element_count(); })
      .def_property_readonly("padded_element_count", [](const PyLayout& l) { return l.index().padded_element_count(); })
      .def_property_readonly("byte_size", [](const PyLayout& l) { return l.index().byte_size(); })
      .def_property_readonly("dense_byte_size", [](const PyLayout& l) { return l.index().dense_byte_size(); })
      .def_property_readonly("tiled_shape", [](const PyLayout& l) { return to_tuple(l.index().tiled_shape()); })
      .def_property_readonly("dtype", &dense_dtype)
      .def_property_readonly("row_slice_dim", [](const PyLayout& l) { return l.shape().layout.minor_to_major.back(); })
      .def_property_readonly("row_slice_granularity", [](const PyLayout& l) { return impl::row_slice_granularity(l.shape()); })
      .def("row_slice", [](const PyLayout& l, int64_t begin, int64_t end) {
             const impl::RowSlice r = impl::row_slice(l.shape(), begin, end);
             return py::make_tuple(PyLayout(r.shape), r.physical_offset, r.physical_bytes);
           }, py::arg("begin"), py::arg("end"),
           "Rows [begin, end) of dim row_slice_dim (the physical-major dim): (the slice's "
           "Layout, its byte offset in the physical buffer, its byte count). Packing the "
           "array's rows with the slice's Layout into buffer[offset:offset + count] writes the "
           "whole pack's bytes there; unpacking them back fills those rows. begin and end are "
           "multiples of row_slice_granularity (end may be the dim's size); LayoutError when "
           "they are not or the layout cannot be sliced (tail padding, a sub-tile splitting "
           "the tile count).")
      .def("linear_index", &linear_index, py::arg("elements"),
           "The position in the physical buffer, counted in elements, of one element (a "
           "sequence of rank coordinates, dim 0 first) -> int; or of a batch, an integer array "
           "of shape (n, rank) -> int64 array of n, computed in one call. Coordinates out of "
           "bounds raise LayoutError naming the first.")
      .def("delinearize", &delinearize, py::arg("positions"),
           "The element stored at a position: one position -> a tuple of coordinates, or None "
           "for padding; an integer array of n positions -> int64 array (n, rank), a row of -1 "
           "for padding. Positions outside [0, padded_element_count) raise LayoutError.")
      .def("draw", [](const PyLayout& l, int64_t max_rows) { return draw::text(l.shape(), max_rows); },
           py::arg("max_rows") = 32,
           "The memory map as text, as `tilecheck draw` prints it: each element's linear index "
           "(rows: the second most minor dim, columns: the most minor one, leading dims at 0), "
           "then the element stored at each position of memory, '.' for padding. Each view is "
           "cut at max_rows rows and columns, or lines, and says so.")
      .def("svg", [](const PyLayout& l) { return draw::svg(l.shape()); },
           "The memory map as an SVG document, as `tilecheck draw --svg` writes it: one colour "
           "per first-level tile, a red outline per second-level tile, padding white. "
           "LayoutError for a layout larger than a 64x64 logical view or 2048 positions.")
      .def("_repr_svg_", [](const PyLayout& l) -> py::object {
             // None: a notebook shows the repr instead.
             return draw::fits_svg(l.shape()) ? py::object(py::str(draw::svg(l.shape()))) : py::object(py::none());
           },
           "The SVG a notebook (Jupyter, IPython) shows for a Layout: svg(), or None for a "
           "layout too large to draw, which the notebook then shows as its repr.");

  m.def("pack", &pack, py::arg("array"), py::arg("layout"), py::kw_only(), py::arg("out") = py::none(),
        "The physical buffer (a uint8 array of layout.byte_size) of a dense array: a numpy "
        "array of layout.dtype and layout.dims (bf16 as uint16 bit patterns, s4/u4 one value "
        "per int8/uint8, pred as bool). Padding is zero. Values that do not fit the element's "
        "width raise ValueError. A view (a slice, a transpose) is read in place when its strides are "
        "non-negative, else copied first; so is a sub-byte integer array that is not contiguous. "
        "out: a uint8 array of byte_size to write into (reused buffers skip the allocation).");
  m.def("unpack", &unpack, py::arg("buffer"), py::arg("layout"), py::kw_only(), py::arg("out") = py::none(),
        "The dense array (layout.dtype, shape layout.dims) of a physical buffer of exactly "
        "layout.byte_size bytes; padding is ignored, signed sub-byte values come out "
        "sign-extended. out: an array of layout.dtype and layout.dims to write into, a view of a "
        "larger array included (non-negative strides, no two elements in one place).");
  m.def("relayout", &relayout, py::arg("buffer"), py::arg("from_layout"), py::arg("to_layout"),
        py::kw_only(), py::arg("out") = py::none(),
        "The same elements in a buffer of to_layout (same dims and element type), padding zero. "
        "out: a uint8 array of to_layout.byte_size to write into.");
  m.def("_time_pack", &time_pack, py::arg("array"), py::arg("layout"), py::arg("out"),
        py::arg("calls"), "Seconds per call of `calls` C++ packs in a row (for the benchmark).");
  m.def("prove", &prove, py::arg("layout"), py::arg("timeout_ms") = 10000,
        "The Z3 proofs of `tilecheck prove` for a Layout or a layout text (whose dims may be "
        "'?'): a dict with 'layout', 'proved' (every obligation proved) and 'obligations' "
        "(name, title, result, ms, detail, and a counterexample when refuted).");
  m.def("_generate", &generate, py::arg("profile"), py::arg("choose"),
        "A layout of the profile, each of the generator's choices asked of choose(lo, hi) "
        "(tilecheck.strategies draws them with hypothesis).");
  m.def("catalog", [] {
    py::list entries;
    for (const CatalogEntry& e : catalog()) {
      entries.append(py::make_tuple(std::string(e.name), PyLayout::parse(std::string(e.layout))));
    }
    return entries;
  }, "The built-in catalogue: a list of (name, Layout).");
  m.def("_vectors", [](const std::vector<std::string>& layouts, bool with_catalog, int64_t count,
                       uint64_t seed) {
    const vectors::Options options{count, seed};
    if (with_catalog) return vectors::render(vectors::catalog_document(options));
    std::vector<ShapeWithLayout> shapes;
    for (const std::string& text : layouts) shapes.push_back(spec::parse_layout(text));
    return vectors::render(vectors::layouts_document(shapes, options));
  }, py::arg("layouts"), py::arg("catalog"), py::arg("count"), py::arg("seed"),
        "The golden-vector document of `tilecheck vectors`, as its text (tilecheck.vectors "
        "wraps it).");
  py::list profiles;
  for (const auto& [name, profile] : gen::kProfiles) profiles.append(std::string(name));
  m.attr("profiles") = py::tuple(profiles);
  m.attr("__version__") = TILECHECK_VERSION_STRING;
  add_gate(m);
}
