// The phases after the catalogue (tilecheck/gen/reach.h): the reach set,
// every element type and form of layout, with index-only shapes past 2^31
// and 2^32 positions; then the size set, pack, unpack and relayout of every
// width class's TPU format past 2^16 and 2^20 elements, within
// --max-array-bytes. Both narrowed by --max-rank and --types.
#include "conformance/phases.h"
#include "conformance/runner.h"
#include <tilecheck/gen/reach.h>
#include <tilecheck/spec/semantics.h>
#include <tilecheck/spec/syntax.h>

namespace tilecheck::conformance {

std::vector<ShapeWithLayout> size_set_within(int64_t max_array_bytes, int64_t* over_limit) {
  std::vector<ShapeWithLayout> out;
  for (const std::string& text : gen::size_layouts()) {
    ShapeWithLayout shape = parse_shape(text);
    if (largest_buffer_bytes(shape) <= max_array_bytes) {
      out.push_back(std::move(shape));
    } else if (over_limit) {
      ++*over_limit;
    }
  }
  return out;
}

namespace {

// Visits `shape` when the narrowing keeps it, counting it in `count`; the
// shapes past 2^31 positions are for the index operations only.
void send(const LayoutStream& stream, ConformanceReport& report, const VisitLayout& visit,
          const ShapeWithLayout& shape, const char* origin, int64_t& count) {
  if (!stream.keeps(shape)) {
    ++report.narrowed_layouts;
    return;
  }
  ++count;
  visit({origin, shape, spec::padded_element_count(shape) > (int64_t{1} << 31)});
}

}  // namespace

void reach_set_phase(const LayoutStream& stream, ConformanceReport& report, const VisitLayout& visit) {
  for (const std::string& text : gen::reach_layouts()) {
    send(stream, report, visit, parse_shape(text), "reach set (tilecheck/gen/reach.h)", report.reach_layouts);
  }
}

void size_set_phase(const check::GateOptions& options, const LayoutStream& stream, ConformanceReport& report,
                    const VisitLayout& visit) {
  for (const ShapeWithLayout& shape : size_set_within(options.max_array_bytes, &report.size_over_limit)) {
    send(stream, report, visit, shape, "size set (tilecheck/gen/reach.h)", report.size_layouts);
  }
}

}  // namespace tilecheck::conformance
