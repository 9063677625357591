// The first phase of a run: the layouts given with --layout, which replace
// every other phase, or else the catalogue (tilecheck/spec/catalog.h: the
// document's and the TPU layouts), narrowed by --max-rank and --types.
#include "conformance/phases.h"
#include <tilecheck/spec/catalog.h>
#include <tilecheck/spec/syntax.h>

namespace tilecheck::conformance {

void given_phase(const std::vector<ShapeWithLayout>& given, ConformanceReport& report, const VisitLayout& visit) {
  for (const ShapeWithLayout& shape : given) {
    ++report.given_layouts;
    visit({"--layout", shape});
  }
}

void catalogue_phase(const LayoutStream& stream, ConformanceReport& report, const VisitLayout& visit) {
  for (const CatalogEntry& entry : catalog()) {
    const ShapeWithLayout shape = parse_shape(entry.layout);
    if (!stream.keeps(shape)) {
      ++report.narrowed_layouts;
      continue;
    }
    ++report.catalogue_layouts;
    visit({"catalogue entry " + std::string(entry.name), shape});
  }
}

}  // namespace tilecheck::conformance
