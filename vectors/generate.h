// Golden vectors from the spec (the oracle), so that an implementation in any
// language can test itself against a file: one JSON document per call, in
// the format docs/VECTORS.md describes (schema:
// vectors/v1/tiled_layouts_schema_v1.json). Used by `tilecheck vectors`, by
// the Python package (tilecheck.vectors) and by the tests.
//
// Everything random comes from the seed and each layout's canonical text, so
// a layout's tests are the same whichever other layouts a document holds.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include <tilecheck/spec/model.h>

namespace tilecheck::vectors {

using Json = nlohmann::ordered_json;

// The most index tests per layout a document may ask for.
inline constexpr int64_t kMaxCount = 100000;

struct Options {
  int64_t count = 16;  // index tests per layout (all elements when there are fewer)
  uint64_t seed = 1;   // of the element choice and the buffer values
};

// One layout of a document: the id its tests start with, the layout (valid
// for the spec: spec::parse_layout's result), and a comment ("" for none).
struct Entry {
  std::string id;
  ShapeWithLayout shape;
  std::string comment;
};

// The document for `entries` (each one group, or two when its buffers are
// too large for pack tests and a smaller form of it gets them), then the
// parse tests when `parse_tests`. Throws Error when options.count is not in
// [0, kMaxCount].
Json document(const std::vector<Entry>& entries, bool parse_tests, const Options& options);

// Every layout of the built-in catalogue (spec/catalog.h), named as there,
// and the parse tests: the document vectors/v1/tiled_layouts_test.json
// holds with the default options.
Json catalog_document(const Options& options);

// The given layouts, each group named by its canonical text.
Json layouts_document(const std::vector<ShapeWithLayout>& shapes, const Options& options);

// The document as the files hold it (Wycheproof's layout): its keys one per
// line, each group's keys one per line, each test compact on a line of its
// own, so that files diff well.
std::string render(const Json& doc);

// One line per test: id, result and flags (comma-separated), tab-separated.
std::string list(const Json& doc);

}  // namespace tilecheck::vectors
