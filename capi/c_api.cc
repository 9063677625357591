// The C API (include/tilecheck/tilecheck.h) over the spec and the impl.
//
// Every entry point runs its body inside `guarded`, the one place where C++
// meets C: it catches everything (tilecheck::Error, std::bad_alloc, any other
// exception) and turns it into a status and a message in the caller's
// tilecheck_error, so no exception crosses the boundary. Arguments are checked
// and outputs computed into locals first; outputs are written only after
// every check passed, so a failed call writes nothing.
#include <cstdio>
#include <cstring>
#include <exception>
#include <functional>
#include <memory>
#include <new>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <tilecheck/impl/plan.h>
#include <tilecheck/spec/catalog.h>
#include <tilecheck/spec/model.h>
#include <tilecheck/spec/semantics.h>
#include <tilecheck/spec/syntax.h>
#include <tilecheck/tilecheck.h>

// The handle: immutable after parsing, so shared use from many threads is safe
// (the impl's plans are thread-safe; the spec is pure functions).
struct tilecheck_layout {
  tilecheck::ShapeWithLayout shape;
  std::string canonical_text;
  tilecheck::impl::PackPlan plan;  // holds the IndexPlan too
};

namespace {

// An error the wrapper itself detects, with the status it maps to.
struct CallError {
  tilecheck_status status;
  std::string message;
};

void report(tilecheck_error* error, tilecheck_status status, int64_t column, const char* message) {
  if (error == nullptr) return;
  error->status = status;
  error->column = column;
  std::snprintf(error->message, sizeof error->message, "%s", message);
}

// Runs `body`; `on_tilecheck_error` is what a tilecheck::Error means at this
// entry point (an invalid layout when parsing, an out-of-range coordinate when
// indexing, ...), since the wrapper has already checked everything else.
template <class Body>
tilecheck_status guarded(tilecheck_error* error, tilecheck_status on_tilecheck_error, Body&& body) {
  try {
    body();
    report(error, TILECHECK_OK, 0, "");
    return TILECHECK_OK;
  } catch (const CallError& e) {
    report(error, e.status, 0, e.message.c_str());
    return e.status;
  } catch (const tilecheck::Error& e) {
    report(error, on_tilecheck_error, e.column(), e.what());
    return on_tilecheck_error;
  } catch (const std::bad_alloc&) {
    report(error, TILECHECK_ERROR_OUT_OF_MEMORY, 0, "out of memory");
    return TILECHECK_ERROR_OUT_OF_MEMORY;
  } catch (const std::exception& e) {
    report(error, TILECHECK_ERROR_INTERNAL, 0, e.what());
    return TILECHECK_ERROR_INTERNAL;
  } catch (...) {
    report(error, TILECHECK_ERROR_INTERNAL, 0, "unknown C++ exception");
    return TILECHECK_ERROR_INTERNAL;
  }
}

[[noreturn]] void fail(tilecheck_status status, std::string message) {
  throw CallError{status, std::move(message)};
}

template <class T>
void require_pointer(const T* pointer, const char* name) {
  if (pointer == nullptr) fail(TILECHECK_ERROR_INVALID_ARGUMENT, std::string(name) + " is NULL");
}

bool uses_spec(int engine) {  // an int: any value may arrive from C
  if (engine == TILECHECK_SPEC) return true;
  if (engine == TILECHECK_IMPL) return false;
  fail(TILECHECK_ERROR_INVALID_ARGUMENT,
       "unknown engine " + std::to_string(engine) + " (TILECHECK_SPEC = 0, TILECHECK_IMPL = 1)");
}

void require_rank(const tilecheck_layout& layout, int64_t rank) {
  if (rank != layout.shape.rank()) {
    fail(TILECHECK_ERROR_INVALID_ARGUMENT, "the element has " + std::to_string(rank) +
                                               " coordinates but the shape has rank " +
                                               std::to_string(layout.shape.rank()));
  }
}

// A buffer argument: NULL only with size 0, and exactly `expected` bytes.
template <class Byte>
std::span<Byte> buffer(Byte* data, size_t size, int64_t expected, const char* name) {
  if (data == nullptr && size != 0) {
    fail(TILECHECK_ERROR_INVALID_ARGUMENT,
         std::string(name) + " is NULL but its size is " + std::to_string(size));
  }
  if (expected < 0 || static_cast<uint64_t>(size) != static_cast<uint64_t>(expected)) {
    fail(TILECHECK_ERROR_BUFFER_SIZE, std::string(name) + " buffer has " + std::to_string(size) +
                                          " bytes; the layout needs exactly " +
                                          std::to_string(expected));
  }
  return {data, size};
}

struct Buffers {
  std::span<const uint8_t> in;
  std::span<uint8_t> out;
};

// The source and destination of a pack, unpack or relayout, each of the size
// the layout requires, and not overlapping: the spec computes into fresh
// vectors and would not mind, the impl writes in place and refuses; one rule
// for both engines.
Buffers checked_buffers(const void* in, size_t in_size, int64_t in_expected, const char* in_name,
                        void* out, size_t out_size, int64_t out_expected, const char* out_name) {
  Buffers b{buffer(static_cast<const uint8_t*>(in), in_size, in_expected, in_name),
            buffer(static_cast<uint8_t*>(out), out_size, out_expected, out_name)};
  const auto in_begin = reinterpret_cast<uintptr_t>(b.in.data());
  const auto out_begin = reinterpret_cast<uintptr_t>(b.out.data());
  if (in_begin < out_begin + b.out.size() && out_begin < in_begin + b.in.size()) {
    fail(TILECHECK_ERROR_INVALID_ARGUMENT, "source and destination buffers overlap");
  }
  return b;
}

void copy_out(const std::vector<uint8_t>& bytes, std::span<uint8_t> out) {
  if (!bytes.empty()) std::memcpy(out.data(), bytes.data(), bytes.size());
}

int64_t byte_size(const tilecheck_layout& layout, bool spec) {
  return spec ? tilecheck::spec::byte_size(layout.shape) : layout.plan.index().byte_size();
}
int64_t dense_byte_size(const tilecheck_layout& layout, bool spec) {
  return spec ? tilecheck::spec::dense_byte_size(layout.shape)
              : layout.plan.index().dense_byte_size();
}

// One size query: the spec's function or the impl plan's, by engine.
template <class Query>
tilecheck_status size_query(const tilecheck_layout* layout, int engine, int64_t* out,
                            tilecheck_error* error, Query query) {
  return guarded(error, TILECHECK_ERROR_INTERNAL, [&] {
    require_pointer(layout, "layout");
    require_pointer(out, "output");
    *out = query(*layout, uses_spec(engine));
  });
}

// Same dims and element width: what relayout means, for both engines (the
// impl's RelayoutPlan checks it too; the spec has no relayout to check it).
void require_relayout_compatible(const tilecheck_layout& from, const tilecheck_layout& to) {
  if (from.shape.dims != to.shape.dims) {
    fail(TILECHECK_ERROR_INVALID_ARGUMENT,
         "relayout: " + from.canonical_text + " and " + to.canonical_text + " have different dims");
  }
  if (from.shape.element_bits() != to.shape.element_bits()) {
    fail(TILECHECK_ERROR_INVALID_ARGUMENT, "relayout: element widths differ (" +
                                               std::to_string(from.shape.element_bits()) + " vs " +
                                               std::to_string(to.shape.element_bits()) + " bits)");
  }
}

// NUL-terminated copies of the catalogue's strings (name, layout, name,
// ...), made once (thread-safe static initialisation); NULL when i is out of
// range or the copy runs out of memory.
const char* catalog_string(size_t i, size_t field) {
  try {
    static const std::vector<std::string> names_and_layouts = [] {
      std::vector<std::string> out;
      for (const tilecheck::CatalogEntry& e : tilecheck::catalog()) {
        out.emplace_back(e.name);
        out.emplace_back(e.layout);
      }
      return out;
    }();
    if (i >= names_and_layouts.size() / 2) return nullptr;
    return names_and_layouts[2 * i + field].c_str();
  } catch (...) {
    return nullptr;
  }
}

}  // namespace

extern "C" {

int tilecheck_c_api_version(void) { return TILECHECK_C_API_VERSION; }

const char* tilecheck_version(void) { return TILECHECK_VERSION_STRING; }

const char* tilecheck_status_name(int status) {
  switch (status) {
    case TILECHECK_OK:
      return "TILECHECK_OK";
    case TILECHECK_ERROR_INVALID_ARGUMENT:
      return "TILECHECK_ERROR_INVALID_ARGUMENT";
    case TILECHECK_ERROR_INVALID_LAYOUT:
      return "TILECHECK_ERROR_INVALID_LAYOUT";
    case TILECHECK_ERROR_OUT_OF_RANGE:
      return "TILECHECK_ERROR_OUT_OF_RANGE";
    case TILECHECK_ERROR_BUFFER_SIZE:
      return "TILECHECK_ERROR_BUFFER_SIZE";
    case TILECHECK_ERROR_OUT_OF_MEMORY:
      return "TILECHECK_ERROR_OUT_OF_MEMORY";
    case TILECHECK_ERROR_INTERNAL:
      return "TILECHECK_ERROR_INTERNAL";
  }
  return "unknown status";
}

tilecheck_status tilecheck_layout_parse(const char* text, tilecheck_layout** layout,
                                        tilecheck_error* error) {
  return guarded(error, TILECHECK_ERROR_INVALID_LAYOUT, [&] {
    require_pointer(text, "text");
    require_pointer(layout, "layout");
    tilecheck::ShapeWithLayout shape = tilecheck::parse_shape(text);
    tilecheck::spec::validate(shape);
    tilecheck::impl::PackPlan plan(shape);  // validates as the impl does
    std::string canonical = tilecheck::print_shape(shape);
    *layout = new tilecheck_layout{std::move(shape), std::move(canonical), std::move(plan)};
  });
}

void tilecheck_layout_free(tilecheck_layout* layout) { delete layout; }

tilecheck_status tilecheck_layout_print(const tilecheck_layout* layout, char* buffer,
                                        size_t buffer_size, size_t* required,
                                        tilecheck_error* error) {
  return guarded(error, TILECHECK_ERROR_INTERNAL, [&] {
    require_pointer(layout, "layout");
    const std::string& text = layout->canonical_text;
    if (required != nullptr) *required = text.size() + 1;
    if (buffer_size < text.size() + 1) {
      fail(TILECHECK_ERROR_BUFFER_SIZE, "the text needs " + std::to_string(text.size() + 1) +
                                            " bytes, the buffer has " +
                                            std::to_string(buffer_size));
    }
    require_pointer(buffer, "buffer");
    std::memcpy(buffer, text.c_str(), text.size() + 1);
  });
}

tilecheck_status tilecheck_rank(const tilecheck_layout* layout, int64_t* rank,
                                tilecheck_error* error) {
  return guarded(error, TILECHECK_ERROR_INTERNAL, [&] {
    require_pointer(layout, "layout");
    require_pointer(rank, "rank");
    *rank = layout->shape.rank();
  });
}

tilecheck_status tilecheck_element_bits(const tilecheck_layout* layout, int64_t* bits,
                                        tilecheck_error* error) {
  return guarded(error, TILECHECK_ERROR_INTERNAL, [&] {
    require_pointer(layout, "layout");
    require_pointer(bits, "bits");
    *bits = layout->shape.element_bits();
  });
}

tilecheck_status tilecheck_element_count(const tilecheck_layout* layout, int engine, int64_t* count,
                                         tilecheck_error* error) {
  return size_query(layout, engine, count, error, [](const tilecheck_layout& l, bool spec) {
    return spec ? tilecheck::spec::element_count(l.shape) : l.plan.index().element_count();
  });
}

tilecheck_status tilecheck_padded_element_count(const tilecheck_layout* layout, int engine,
                                                int64_t* count, tilecheck_error* error) {
  return size_query(layout, engine, count, error, [](const tilecheck_layout& l, bool spec) {
    return spec ? tilecheck::spec::padded_element_count(l.shape)
                : l.plan.index().padded_element_count();
  });
}

tilecheck_status tilecheck_byte_size(const tilecheck_layout* layout, int engine, int64_t* bytes,
                                     tilecheck_error* error) {
  return size_query(layout, engine, bytes, error, byte_size);
}

tilecheck_status tilecheck_dense_byte_size(const tilecheck_layout* layout, int engine,
                                           int64_t* bytes, tilecheck_error* error) {
  return size_query(layout, engine, bytes, error, dense_byte_size);
}

tilecheck_status tilecheck_linear_index(const tilecheck_layout* layout, int engine,
                                        const int64_t* element, int64_t rank, int64_t* index,
                                        tilecheck_error* error) {
  return guarded(error, TILECHECK_ERROR_OUT_OF_RANGE, [&] {
    require_pointer(layout, "layout");
    require_pointer(index, "index");
    require_rank(*layout, rank);
    if (rank > 0) require_pointer(element, "element");
    const std::vector<int64_t> coordinates(element, element + rank);
    *index = uses_spec(engine) ? tilecheck::spec::linear_index(layout->shape, coordinates)
                               : layout->plan.index().linear_index_checked(coordinates);
  });
}

tilecheck_status tilecheck_delinearize(const tilecheck_layout* layout, int engine, int64_t position,
                                       int64_t* element, int64_t rank, int* is_element,
                                       tilecheck_error* error) {
  return guarded(error, TILECHECK_ERROR_OUT_OF_RANGE, [&] {
    require_pointer(layout, "layout");
    require_pointer(is_element, "is_element");
    require_rank(*layout, rank);
    if (rank > 0) require_pointer(element, "element");
    std::optional<std::vector<int64_t>> found;
    if (uses_spec(engine)) {
      found = tilecheck::spec::delinearize(layout->shape, position);
    } else {
      std::vector<int64_t> coordinates(static_cast<size_t>(rank));
      if (layout->plan.index().delinearize(position, coordinates)) found = std::move(coordinates);
    }
    *is_element = found.has_value() ? 1 : 0;
    if (found && rank > 0) std::memcpy(element, found->data(), found->size() * sizeof(int64_t));
  });
}

tilecheck_status tilecheck_linear_index_batch(const tilecheck_layout* layout, int engine,
                                              const int64_t* elements, int64_t count, int64_t rank,
                                              int64_t* indices, tilecheck_error* error) {
  return guarded(error, TILECHECK_ERROR_OUT_OF_RANGE, [&] {
    require_pointer(layout, "layout");
    require_rank(*layout, rank);
    if (count < 0) fail(TILECHECK_ERROR_INVALID_ARGUMENT, "count is negative");
    if (count == 0) return;
    require_pointer(indices, "indices");
    if (rank > 0) require_pointer(elements, "elements");
    const std::span<const int64_t> all(elements, static_cast<size_t>(count * rank));
    std::vector<int64_t> out(static_cast<size_t>(count));
    if (uses_spec(engine)) {
      for (int64_t i = 0; i < count; ++i) {
        const std::vector<int64_t> e(all.begin() + i * rank, all.begin() + (i + 1) * rank);
        out[i] = tilecheck::spec::linear_index(layout->shape, e);
      }
    } else {
      layout->plan.index().linear_index_batch_checked(all, out);
    }
    std::memcpy(indices, out.data(), out.size() * sizeof(int64_t));
  });
}

tilecheck_status tilecheck_delinearize_batch(const tilecheck_layout* layout, int engine,
                                             const int64_t* positions, int64_t count,
                                             int64_t* elements, int64_t rank, int* is_element,
                                             tilecheck_error* error) {
  return guarded(error, TILECHECK_ERROR_OUT_OF_RANGE, [&] {
    require_pointer(layout, "layout");
    require_rank(*layout, rank);
    if (count < 0) fail(TILECHECK_ERROR_INVALID_ARGUMENT, "count is negative");
    if (count == 0) return;
    require_pointer(positions, "positions");
    require_pointer(is_element, "is_element");
    if (rank > 0) require_pointer(elements, "elements");
    const std::span<const int64_t> asked(positions, static_cast<size_t>(count));
    std::vector<int64_t> rows(static_cast<size_t>(count * rank), -1);
    std::vector<int> found(static_cast<size_t>(count), 0);
    if (uses_spec(engine)) {
      for (int64_t i = 0; i < count; ++i) {
        const std::optional<std::vector<int64_t>> e = tilecheck::spec::delinearize(layout->shape, asked[i]);
        if (e) std::copy(e->begin(), e->end(), rows.begin() + i * rank);
        found[i] = e.has_value();
      }
    } else {
      const tilecheck::impl::IndexPlan& plan = layout->plan.index();
      plan.delinearize_batch(asked, rows);
      // A padding row is all -1; an element's coordinates are >= 0 (rank 0:
      // every position below the padded count of a scalar holds its element
      // unless it is padding, which delinearize tells apart).
      for (int64_t i = 0; i < count; ++i) {
        found[i] = rank > 0 ? rows[i * rank] >= 0 : plan.delinearize(asked[i], {});
      }
    }
    if (rank > 0) std::memcpy(elements, rows.data(), rows.size() * sizeof(int64_t));
    std::memcpy(is_element, found.data(), found.size() * sizeof(int));
  });
}

tilecheck_status tilecheck_pack(const tilecheck_layout* layout, int engine, const void* dense,
                                size_t dense_bytes, void* physical, size_t physical_bytes,
                                tilecheck_error* error) {
  return guarded(error, TILECHECK_ERROR_INVALID_ARGUMENT, [&] {
    require_pointer(layout, "layout");
    const bool spec = uses_spec(engine);
    const Buffers b =
        checked_buffers(dense, dense_bytes, dense_byte_size(*layout, spec), "dense", physical,
                        physical_bytes, byte_size(*layout, spec), "physical");
    if (spec) {
      copy_out(tilecheck::spec::pack(layout->shape, b.in), b.out);
    } else {
      layout->plan.pack(b.in, b.out);
    }
  });
}

tilecheck_status tilecheck_unpack(const tilecheck_layout* layout, int engine, const void* physical,
                                  size_t physical_bytes, void* dense, size_t dense_bytes,
                                  tilecheck_error* error) {
  return guarded(error, TILECHECK_ERROR_INVALID_ARGUMENT, [&] {
    require_pointer(layout, "layout");
    const bool spec = uses_spec(engine);
    const Buffers b =
        checked_buffers(physical, physical_bytes, byte_size(*layout, spec), "physical", dense,
                        dense_bytes, dense_byte_size(*layout, spec), "dense");
    if (spec) {
      copy_out(tilecheck::spec::unpack(layout->shape, b.in), b.out);
    } else {
      layout->plan.unpack(b.in, b.out);
    }
  });
}

}  // extern "C"

// C++ helpers of the strided calls below (C++ linkage: they return C++ types).
namespace {

// The strides of a strided call: `rank` of them, checked as the impl's plan
// checks them (which the spec engine uses for the span and the overlap rule
// too, so both engines take the same arguments).
std::vector<int64_t> strides_of(const tilecheck_layout& layout, const int64_t* dense_strides, int64_t rank) {
  require_pointer(dense_strides, "dense_strides");
  if (rank != layout.shape.rank()) {
    fail(TILECHECK_ERROR_INVALID_ARGUMENT, std::to_string(rank) + " strides for a shape of rank " +
                                               std::to_string(layout.shape.rank()));
  }
  return {dense_strides, dense_strides + rank};
}

// The spec's side of a strided call: element by element between the view
// and a row-major array.
void for_each_strided(const tilecheck::ShapeWithLayout& shape, const std::vector<int64_t>& strides,
                      const std::function<void(int64_t row_major, int64_t view)>& f) {
  const int64_t nb = shape.dense_element_bytes();
  int64_t i = 0;
  tilecheck::for_each_element(shape.dims, [&](const std::vector<int64_t>& e) {
    int64_t at = 0;
    for (size_t l = 0; l < e.size(); ++l) at += e[l] * strides[l];
    f((i++) * nb, at);
  });
}

}  // namespace

extern "C" {

tilecheck_status tilecheck_dense_span_bytes(const tilecheck_layout* layout, const int64_t* dense_strides,
                                            int64_t rank, int64_t* bytes, tilecheck_error* error) {
  return guarded(error, TILECHECK_ERROR_INVALID_ARGUMENT, [&] {
    require_pointer(layout, "layout");
    require_pointer(bytes, "bytes");
    *bytes = tilecheck::impl::PackPlan(layout->shape, strides_of(*layout, dense_strides, rank)).dense_span_bytes();
  });
}

tilecheck_status tilecheck_pack_strided(const tilecheck_layout* layout, int engine, const void* dense,
                                        size_t dense_bytes, const int64_t* dense_strides, int64_t rank,
                                        void* physical, size_t physical_bytes, tilecheck_error* error) {
  return guarded(error, TILECHECK_ERROR_INVALID_ARGUMENT, [&] {
    require_pointer(layout, "layout");
    const std::vector<int64_t> strides = strides_of(*layout, dense_strides, rank);
    const tilecheck::impl::PackPlan plan(layout->shape, strides);
    const bool spec = uses_spec(engine);
    const Buffers b = checked_buffers(dense, dense_bytes, plan.dense_span_bytes(), "dense", physical,
                                      physical_bytes, byte_size(*layout, spec), "physical");
    if (!spec) return plan.pack(b.in, b.out);
    const int64_t nb = layout->shape.dense_element_bytes();
    std::vector<uint8_t> row_major(static_cast<size_t>(tilecheck::spec::dense_byte_size(layout->shape)));
    for_each_strided(layout->shape, strides, [&](int64_t r, int64_t v) {
      std::memcpy(row_major.data() + r, b.in.data() + v, nb);
    });
    copy_out(tilecheck::spec::pack(layout->shape, row_major), b.out);
  });
}

tilecheck_status tilecheck_unpack_strided(const tilecheck_layout* layout, int engine, const void* physical,
                                          size_t physical_bytes, void* dense, size_t dense_bytes,
                                          const int64_t* dense_strides, int64_t rank, tilecheck_error* error) {
  return guarded(error, TILECHECK_ERROR_INVALID_ARGUMENT, [&] {
    require_pointer(layout, "layout");
    const std::vector<int64_t> strides = strides_of(*layout, dense_strides, rank);
    const tilecheck::impl::PackPlan plan(layout->shape, strides);
    const bool spec = uses_spec(engine);
    const Buffers b = checked_buffers(physical, physical_bytes, byte_size(*layout, spec), "physical", dense,
                                      dense_bytes, plan.dense_span_bytes(), "dense");
    if (!spec || plan.dense_may_overlap()) return plan.unpack(b.in, b.out);  // the impl refuses overlaps
    const int64_t nb = layout->shape.dense_element_bytes();
    const std::vector<uint8_t> row_major = tilecheck::spec::unpack(layout->shape, b.in);
    for_each_strided(layout->shape, strides, [&](int64_t r, int64_t v) {
      std::memcpy(b.out.data() + v, row_major.data() + r, nb);
    });
  });
}

tilecheck_status tilecheck_row_slice_granularity(const tilecheck_layout* layout, int64_t* rows,
                                                 tilecheck_error* error) {
  return guarded(error, TILECHECK_ERROR_INVALID_ARGUMENT, [&] {
    require_pointer(layout, "layout");
    require_pointer(rows, "rows");
    *rows = tilecheck::impl::row_slice_granularity(layout->shape);
  });
}

tilecheck_status tilecheck_row_slice(const tilecheck_layout* layout, int64_t begin, int64_t end,
                                     tilecheck_layout** slice, int64_t* dim, int64_t* physical_offset,
                                     int64_t* physical_bytes, int64_t* dense_offset, tilecheck_error* error) {
  return guarded(error, TILECHECK_ERROR_INVALID_ARGUMENT, [&] {
    require_pointer(layout, "layout");
    require_pointer(slice, "slice");
    require_pointer(dim, "dim");
    require_pointer(physical_offset, "physical_offset");
    require_pointer(physical_bytes, "physical_bytes");
    require_pointer(dense_offset, "dense_offset");
    tilecheck::impl::RowSlice r = tilecheck::impl::row_slice(layout->shape, begin, end);
    tilecheck::impl::PackPlan plan(r.shape);
    std::string canonical = tilecheck::print_shape(r.shape);
    *slice = new tilecheck_layout{std::move(r.shape), std::move(canonical), std::move(plan)};
    *dim = r.dim;
    *physical_offset = r.physical_offset;
    *physical_bytes = r.physical_bytes;
    *dense_offset = r.dense_offset;
  });
}

tilecheck_status tilecheck_relayout(const tilecheck_layout* from, const tilecheck_layout* to,
                                    int engine, const void* src, size_t src_bytes, void* dst,
                                    size_t dst_bytes, tilecheck_error* error) {
  return guarded(error, TILECHECK_ERROR_INVALID_ARGUMENT, [&] {
    require_pointer(from, "from");
    require_pointer(to, "to");
    const bool spec = uses_spec(engine);
    require_relayout_compatible(*from, *to);
    const Buffers b = checked_buffers(src, src_bytes, byte_size(*from, spec), "source", dst,
                                      dst_bytes, byte_size(*to, spec), "destination");
    if (spec) {
      copy_out(tilecheck::spec::pack(to->shape, tilecheck::spec::unpack(from->shape, b.in)), b.out);
    } else {
      tilecheck::impl::RelayoutPlan(from->shape, to->shape).run(b.in, b.out);
    }
  });
}

size_t tilecheck_catalog_size(void) {
  try {
    return tilecheck::catalog().size();  // built on first use
  } catch (...) {
    return 0;
  }
}

const char* tilecheck_catalog_name(size_t i) { return catalog_string(i, 0); }
const char* tilecheck_catalog_layout(size_t i) { return catalog_string(i, 1); }

}  // extern "C"
