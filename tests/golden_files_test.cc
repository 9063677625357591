// The files tilecheck ships for others and the commands that make them:
// `tilecheck vectors` (vectors/catalog.jsonl, format in docs/VECTORS.md) and
// `tilecheck draw --svg` (docs/figures/). Each checked-in file must equal a
// fresh regeneration byte for byte, and what it says is checked again,
// independently of the spec that wrote it, against the impl (IndexPlan,
// PackPlan), so that neither file certifies itself.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include <tilecheck/impl/plan.h>
#include <tilecheck/spec/catalog.h>
#include <tilecheck/spec/syntax.h>
#include "tests/run_tilecheck.h"

namespace {

using namespace tilecheck;
using nlohmann::json;
using tilecheck::cli_testing::expect_ok;
using tilecheck::cli_testing::Output;
using tilecheck::cli_testing::read_file;
using tilecheck::cli_testing::run_binary;
using tilecheck::cli_testing::tilecheck;

const std::string kSourceDir = TILECHECK_SOURCE_DIR;
const std::string kCatalogVectors = kSourceDir + "/vectors/catalog.jsonl";

std::string catalog_layout(std::string_view name) {
  for (const CatalogEntry& entry : catalog()) {
    if (entry.name == name) return std::string(entry.layout);
  }
  ADD_FAILURE() << "no catalogue entry " << name;
  return "";
}

// "" when equal, else the line and column of the first difference, with a
// little context from each side (lines of vectors can be kilobytes long).
std::string first_difference(const std::string& expected, const std::string& actual) {
  if (expected == actual) return "";
  size_t at = 0;
  while (at < expected.size() && at < actual.size() && expected[at] == actual[at]) ++at;
  const size_t line_start = at == 0 ? 0 : expected.rfind('\n', at - 1) + 1;  // npos + 1 == 0
  const size_t from = std::max(line_start, at >= 40 ? at - 40 : 0);
  const auto context = [&](const std::string& text) {
    return at >= text.size() ? std::string("(end)") : text.substr(from, at - from + 40);
  };
  return "first difference at line " +
         std::to_string(1 + std::count(expected.begin(), expected.begin() + at, '\n')) +
         ", column " + std::to_string(at - line_start + 1) + ":\n  checked in:  ..." +
         context(expected) + "...\n  regenerated: ..." + context(actual) + "...";
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

std::vector<uint8_t> from_hex(const std::string& hex) {
  if (hex.size() % 2 != 0) throw Error("odd number of hex digits");
  std::vector<uint8_t> bytes;
  for (size_t i = 0; i < hex.size(); i += 2) {
    bytes.push_back(static_cast<uint8_t>(std::stoi(hex.substr(i, 2), nullptr, 16)));
  }
  return bytes;
}

// ---------------------------------------------------------------------------
// Golden vectors

// The records of one layout, as docs/VECTORS.md orders them.
struct LayoutRecords {
  std::string layout;
  std::vector<json> records;
};

// Everything wrong with a vectors file, checked with the impl (not the spec):
// the record order and keys of docs/VECTORS.md, canonical layout text, sizes,
// indices, pack and unpack, and the choice of elements.
std::vector<std::string> problems_with_vectors(const std::string& text) {
  std::vector<std::string> problems;
  std::vector<LayoutRecords> layouts;
  const std::vector<std::string> key_orders[] = {{"layout", "elements", "bytes"},
                                                 {"layout", "element", "index"},
                                                 {"layout", "dense_hex", "packed_hex"},
                                                 {"layout", "smaller_form_of", "dense_hex", "packed_hex"},
                                                 {"layout", "pack_skipped"}};
  for (const std::string& line : lines_of(text)) {
    const auto record = nlohmann::ordered_json::parse(line, nullptr, false);
    std::vector<std::string> keys;
    if (record.is_object()) {
      for (const auto& item : record.items()) keys.push_back(item.key());
    }
    if (std::find(std::begin(key_orders), std::end(key_orders), keys) == std::end(key_orders)) {
      problems.push_back("not a record of docs/VECTORS.md: " + line);
      continue;
    }
    if (record.dump() != line) problems.push_back("not compact JSON: " + line);
    // A smaller form's pack record belongs to the layout it is a form of.
    const std::string layout = keys[1] == "smaller_form_of" ? record["smaller_form_of"] : record["layout"];
    if (keys[1] == "elements") {
      layouts.push_back({layout, {}});
    } else if (layouts.empty() || layouts.back().layout != layout) {
      problems.push_back("record before its layout's size record: " + line);
      continue;
    }
    layouts.back().records.push_back(json::parse(line));
  }
  for (const LayoutRecords& l : layouts) {
    const std::string where = "layout " + l.layout + ": ";
    try {
      if (print_shape(parse_shape(l.layout)) != l.layout)
        problems.push_back(where + "not canonical");
      const impl::PackPlan plan(parse_shape(l.layout));
      const impl::IndexPlan& index = plan.index();
      const json& size = l.records.front();
      if (size["elements"] != index.element_count() || size["bytes"] != index.byte_size()) {
        problems.push_back(where + "size record " + size.dump() + ", the impl says " +
                           std::to_string(index.element_count()) + " elements, " +
                           std::to_string(index.byte_size()) + " bytes");
      }
      std::set<std::vector<int64_t>> elements;
      size_t pack_records = 0;
      for (size_t i = 1; i < l.records.size(); ++i) {
        const json& r = l.records[i];
        if (r.contains("index")) {
          if (pack_records) problems.push_back(where + "index record after the pack record");
          const std::vector<int64_t> e = r["element"];
          if (!elements.insert(e).second) problems.push_back(where + "repeated " + r.dump());
          const int64_t expected = index.linear_index_checked(e);
          if (r["index"] != expected) {
            problems.push_back(where + r.dump() + ": the impl says " + std::to_string(expected));
          }
          continue;
        }
        ++pack_records;
        if (r.contains("pack_skipped")) continue;
        const ShapeWithLayout shape = parse_shape(l.layout);
        const ShapeWithLayout form = parse_shape(r["layout"].get<std::string>());
        if (r.contains("smaller_form_of")) {
          bool smaller = form.type == shape.type && form.layout == shape.layout &&
                         form.rank() == shape.rank() && !(form.dims == shape.dims);
          for (int64_t i = 0; smaller && i < form.rank(); ++i) smaller = form.dims[i] <= shape.dims[i];
          if (!smaller) problems.push_back(where + r["layout"].dump() + " is not a smaller form of it");
        }
        const impl::PackPlan form_plan(form);
        const std::vector<uint8_t> dense = from_hex(r["dense_hex"]);
        const std::vector<uint8_t> packed = from_hex(r["packed_hex"]);
        if (form.type == ElementType::kPred &&
            std::any_of(dense.begin(), dense.end(), [](uint8_t b) { return b > 1; })) {
          problems.push_back(where + "a pred value other than 0 or 1");
        }
        std::vector<uint8_t> repacked(form_plan.index().byte_size()),
            unpacked(form_plan.index().dense_byte_size());
        form_plan.pack(dense, repacked);
        form_plan.unpack(packed, unpacked);
        if (repacked != packed) problems.push_back(where + "the impl packs dense_hex differently");
        if (unpacked != dense)
          problems.push_back(where + "the impl unpacks packed_hex differently");
      }
      if (pack_records != 1) problems.push_back(where + "not exactly one pack record");
      // The first and the last element are always among the chosen ones.
      if (index.element_count() > 0) {
        std::vector<int64_t> first(index.rank(), 0), last;
        for (const int64_t d : index.shape().dims) last.push_back(d - 1);
        if (!elements.count(first) || !elements.count(last)) {
          problems.push_back(where + "the first or the last element is missing");
        }
      }
    } catch (const std::exception& e) {
      problems.push_back(where + e.what());
    }
  }
  return problems;
}

TEST(Vectors, RecordsOfOneLayout) {
  const std::string figure1 = catalog_layout("doc_figure1");
  const Output r = tilecheck({"vectors", "F32[3, 5]{1,0:T(2,2)}", "--count", "4"});
  expect_ok(r);
  const std::vector<std::string> lines = lines_of(r.out);
  ASSERT_EQ(lines.size(), 6u) << r.out;
  EXPECT_EQ(lines[0], R"({"layout":"f32[3,5]{1,0:T(2,2)}","elements":15,"bytes":96})");
  EXPECT_EQ(lines[1], R"({"layout":"f32[3,5]{1,0:T(2,2)}","element":[0,0],"index":0})");
  EXPECT_EQ(lines[2], R"({"layout":"f32[3,5]{1,0:T(2,2)}","element":[2,4],"index":20})");
  EXPECT_EQ(lines[5].rfind(R"({"layout":"f32[3,5]{1,0:T(2,2)}","dense_hex":")", 0), 0u);
  const json pack = json::parse(lines[5]);
  EXPECT_EQ(pack["dense_hex"].get<std::string>().size(), 2u * 15 * 4);
  EXPECT_EQ(pack["packed_hex"].get<std::string>().size(), 2u * 96);
  EXPECT_EQ(problems_with_vectors(r.out), std::vector<std::string>{});
}

TEST(Vectors, AllElementsRowMajorWhenTheCountCoversThem) {
  const Output r = tilecheck({"vectors", catalog_layout("doc_figure1"), "--count", "15"});
  expect_ok(r);
  const std::vector<std::string> lines = lines_of(r.out);
  ASSERT_EQ(lines.size(), 17u);
  for (int i = 0; i < 15; ++i) {
    EXPECT_EQ(json::parse(lines[1 + i])["element"], json::array({i / 5, i % 5}));
  }
}

TEST(Vectors, DeterministicForASeedAndIndependentOfOtherLayouts) {
  const std::string a = catalog_layout("tpu_bf16_ragged"), b = catalog_layout("u2_tiled");
  const Output both = tilecheck({"vectors", a, b, "--seed", "7"});
  expect_ok(both);
  EXPECT_EQ(tilecheck({"vectors", a, b, "--seed", "7"}).out, both.out);
  EXPECT_EQ(
      tilecheck({"vectors", a, "--seed", "7"}).out + tilecheck({"vectors", b, "--seed", "7"}).out,
      both.out);
  EXPECT_NE(tilecheck({"vectors", a, b, "--seed", "8"}).out, both.out);
  EXPECT_EQ(problems_with_vectors(both.out), std::vector<std::string>{});
}

// f32[16,256]{1,0:T(8,128)}: rows 0,7,8,15 and columns 0,127,128,255 start or
// end a tile, 16 tile corners. A uniform draw lands on one with probability
// 1/256; every other draw aims at them (repeats skipped), so of 40 elements
// about a dozen are corners, where uniform draws alone would give about 2.
TEST(Vectors, ChosenElementsIncludeTileCorners) {
  const Output r = tilecheck({"vectors", catalog_layout("tpu_f32"), "--count", "40"});
  expect_ok(r);
  int at_corner = 0;
  for (const std::string& line : lines_of(r.out)) {
    const json record = json::parse(line);
    if (!record.contains("element")) continue;
    const int64_t row = record["element"][0], col = record["element"][1];
    at_corner += (row % 8 == 0 || row % 8 == 7) && (col % 128 == 0 || col % 128 == 127);
  }
  EXPECT_GE(at_corner, 8) << r.out;
}

TEST(Vectors, LargeLayoutsPackASmallerForm) {
  const Output r = tilecheck({"vectors", catalog_layout("tpu_f32")});
  expect_ok(r);
  // Sizes near int64's limit: records all the same, without overflowing.
  const Output huge =
      tilecheck({"vectors", "pred[3000000000,3000000000]{1,0:E(1)}", "--count", "3"});
  expect_ok(huge);
  EXPECT_EQ(lines_of(huge.out).size(), 5u) << huge.out;
  EXPECT_EQ(problems_with_vectors(huge.out), std::vector<std::string>{});
  EXPECT_EQ(lines_of(r.out).back().rfind(
                R"({"layout":"f32[16,33]{1,0:T(8,128)}","smaller_form_of":"f32[16,256]{1,0:T(8,128)}",)"
                R"("dense_hex":")",
                0),
            0u)
      << r.out;
  EXPECT_EQ(problems_with_vectors(r.out), std::vector<std::string>{});
  // A tile larger than the limit: no form fits.
  const Output big_tile = tilecheck({"vectors", "f32[4096]{0:T(4096)}", "--count", "1"});
  expect_ok(big_tile);
  EXPECT_EQ(lines_of(big_tile.out).back(),
            R"({"layout":"f32[4096]{0:T(4096)}","pack_skipped":"one tile of this layout is above )"
            R"(the 8192-byte limit for pack records"})");
}

TEST(Vectors, BadInputExitsTwo) {
  for (const std::vector<std::string>& args :
       std::vector<std::vector<std::string>>{{"vectors", "f32[3,5]{1,0:T(2,2)", "f32[2]"},
                                             {"vectors", "f32[2]", "f32[3,5]{0,0}"},
                                             {"vectors"},
                                             {"vectors", "--catalog", "f32[2]"},
                                             {"vectors", "f32[2]", "--count", "-1"}}) {
    const Output r = tilecheck(args);
    EXPECT_EQ(r.exit_code, 2) << args.back();
    EXPECT_EQ(r.out, "") << args.back();
    EXPECT_EQ(r.err.rfind("error: ", 0), 0u) << r.err;
  }
}

TEST(Vectors, CheckedInCatalogIsCurrent) {
  const Output r = tilecheck({"vectors", "--catalog"});
  expect_ok(r);
  EXPECT_EQ(first_difference(read_file(kCatalogVectors), r.out), "")
      << "regenerate with: tilecheck vectors --catalog > vectors/catalog.jsonl";
}

TEST(Vectors, CheckedInCatalogAgreesWithTheImpl) {
  const std::string text = read_file(kCatalogVectors);
  EXPECT_EQ(problems_with_vectors(text), std::vector<std::string>{});
  std::map<std::string, int> kinds;
  std::set<std::string> layouts;
  for (const std::string& line : lines_of(text)) {
    const json record = json::parse(line);
    layouts.insert(record[record.contains("smaller_form_of") ? "smaller_form_of" : "layout"].get<std::string>());
    for (const char* kind : {"elements", "index", "dense_hex", "smaller_form_of", "pack_skipped"}) {
      kinds[kind] += record.contains(kind);
    }
  }
  EXPECT_EQ(layouts.size(), catalog().size());
  EXPECT_EQ(kinds["elements"], static_cast<int>(catalog().size()));
  EXPECT_GE(kinds["index"], 400);
  // Every catalogue layout has pack data, its own or a smaller form's.
  EXPECT_EQ(kinds["dense_hex"], static_cast<int>(catalog().size()));
  EXPECT_EQ(kinds["pack_skipped"], 0);
  EXPECT_GE(kinds["smaller_form_of"], 10);
}

// The checker above must catch a wrong file: one wrong number of each kind.
TEST(Vectors, TheImplCheckerCatchesATamperedFile) {
  const Output r = tilecheck({"vectors", catalog_layout("u2_tiled"), "--count", "8"});
  expect_ok(r);
  ASSERT_EQ(problems_with_vectors(r.out), std::vector<std::string>{});
  const auto tampered = [&](const std::string& from, const std::string& to) {
    std::string text = r.out;
    const size_t at = text.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    return text.replace(at, from.size(), to);
  };
  const int64_t bytes = json::parse(lines_of(r.out).front())["bytes"];
  EXPECT_NE(problems_with_vectors(tampered("\"bytes\":" + std::to_string(bytes) + "}",
                                           "\"bytes\":" + std::to_string(bytes + 1) + "}")),
            std::vector<std::string>{});
  EXPECT_NE(
      problems_with_vectors(tampered(R"("element":[5,9],"index":)", R"("element":[5,8],"index":)")),
      std::vector<std::string>{});
  EXPECT_NE(problems_with_vectors(tampered(R"("packed_hex":")", R"("packed_hex":"ff)")),
            std::vector<std::string>{});
  std::string flipped = r.out;
  const size_t packed = flipped.find(R"("packed_hex":")") + 14;
  flipped[packed] = flipped[packed] == '0' ? '1' : '0';
  EXPECT_NE(problems_with_vectors(flipped), std::vector<std::string>{});
  // A "smaller form" that is not one, and a pred value that is not 0 or 1.
  const Output large = tilecheck({"vectors", catalog_layout("tpu_f32"), "--count", "2"});
  ASSERT_EQ(problems_with_vectors(large.out), std::vector<std::string>{});
  std::string not_smaller = large.out;
  const size_t form = not_smaller.find(R"({"layout":"f32[16,33])");
  ASSERT_NE(form, std::string::npos) << large.out;
  not_smaller.replace(form, 22, R"({"layout":"f32[16,34])");
  EXPECT_NE(problems_with_vectors(not_smaller), std::vector<std::string>{});
  const Output pred = tilecheck({"vectors", "pred[3,5]{1,0:T(2,2)}", "--count", "2"});
  ASSERT_EQ(problems_with_vectors(pred.out), std::vector<std::string>{});
  std::string two = pred.out;
  const size_t dense = two.find(R"("dense_hex":"0)") + 14;
  two[dense] = '2';
  EXPECT_NE(problems_with_vectors(two), std::vector<std::string>{});
}

// ---------------------------------------------------------------------------
// SVG figures

// Unique per process: ctest runs tests in parallel, maybe from several checkouts.
std::string temp_path(const std::string& name) {
  return testing::TempDir() + "tilecheck_" + std::to_string(getpid()) + "_" + name;
}

// Width and height from a PNG's IHDR chunk.
std::pair<int64_t, int64_t> png_size(const std::string& path) {
  const std::string png = read_file(path);
  if (png.size() < 24 || png.compare(1, 3, "PNG") != 0) return {-1, -1};
  const auto be32 = [&](size_t at) {
    int64_t v = 0;
    for (size_t i = 0; i < 4; ++i) v = v * 256 + static_cast<uint8_t>(png[at + i]);
    return v;
  };
  return {be32(16), be32(20)};
}

std::vector<int64_t> coordinates(const std::string& text) {
  std::vector<int64_t> values;
  std::istringstream in(text);
  for (std::string entry; std::getline(in, entry, ',');) values.push_back(std::stoll(entry));
  return values;
}

// Everything wrong with a drawing of `layout`, checked with the impl: every
// element of the logical view labelled with its linear index, every position
// of the memory view labelled with its element or white as padding, and each
// element in the same colour in both views.
std::vector<std::string> problems_with_svg(const std::string& svg, const std::string& layout) {
  std::vector<std::string> problems;
  const impl::IndexPlan plan(parse_shape(layout));
  std::map<std::vector<int64_t>, std::string> grid_fill;
  const std::regex grid_rect(R"re(<rect [^>]*fill="([^"]*)"[^>]* data-element="([0-9,]*)"/>)re");
  for (std::sregex_iterator m(svg.begin(), svg.end(), grid_rect), end; m != end; ++m) {
    grid_fill[coordinates((*m)[2])] = (*m)[1];
  }
  const std::regex index_label(R"re(class="index" data-element="([0-9,]*)">([0-9]+)</text>)re");
  int64_t labelled = 0;
  for (std::sregex_iterator m(svg.begin(), svg.end(), index_label), end; m != end;
       ++m, ++labelled) {
    const int64_t expected = plan.linear_index_checked(coordinates((*m)[1]));
    if (std::stoll((*m)[2]) != expected) {
      problems.push_back("element (" + (*m)[1].str() + ") labelled " + (*m)[2].str() +
                         ", the impl says " + std::to_string(expected));
    }
  }
  const int64_t rank = plan.rank();
  const int64_t slice =
      (rank >= 1 ? plan.shape().dims[rank - 1] : 1) * (rank >= 2 ? plan.shape().dims[rank - 2] : 1);
  if (labelled != slice || static_cast<int64_t>(grid_fill.size()) != slice) {
    problems.push_back(std::to_string(labelled) + " labelled and " +
                       std::to_string(grid_fill.size()) + " coloured elements; the slice has " +
                       std::to_string(slice));
  }
  std::map<int64_t, std::string> position_label;
  const std::regex element_label(R"re(class="element" data-position="([0-9]+)">([^<]*)</text>)re");
  for (std::sregex_iterator m(svg.begin(), svg.end(), element_label), end; m != end; ++m) {
    position_label[std::stoll((*m)[1])] = (*m)[2];
  }
  const std::regex position_rect(
      R"re(<rect [^>]*fill="([^"]*)"[^>]* data-position="([0-9]+)"/>)re");
  int64_t positions = 0;
  std::vector<int64_t> e(rank);
  for (std::sregex_iterator m(svg.begin(), svg.end(), position_rect), end; m != end; ++m) {
    const int64_t p = std::stoll((*m)[2]);
    const std::string fill = (*m)[1], where = "position " + std::to_string(p) + ": ";
    if (p != positions++) problems.push_back(where + "out of order");
    if (!plan.delinearize(p, e)) {
      if (fill != "white" || position_label.count(p)) problems.push_back(where + "padding drawn");
      continue;
    }
    std::string label = e.empty() ? "()" : "";
    for (size_t i = 0; i < e.size(); ++i) label += (i ? "," : "") + std::to_string(e[i]);
    if (position_label[p] != label) {
      problems.push_back(where + "labelled '" + position_label[p] + "', the impl says " + label);
    }
    if (fill == "white") problems.push_back(where + "an element drawn white");
    const bool in_slice =
        rank < 2 || std::all_of(e.begin(), e.end() - 2, [](int64_t x) { return x == 0; });
    if (in_slice && grid_fill[e] != fill) problems.push_back(where + "coloured unlike its element");
  }
  if (positions != plan.padded_element_count()) {
    problems.push_back(std::to_string(positions) + " positions drawn of " +
                       std::to_string(plan.padded_element_count()));
  }
  return problems;
}

// Draws `layout`, renders it with rsvg-convert and checks the PNG has the
// SVG's declared size. Returns the SVG ("" when drawing or rendering failed).
std::string draw_and_render(const std::string& layout, const std::string& name) {
  const std::string svg_path = temp_path(name + ".svg"), png_path = temp_path(name + ".png");
  const Output drawn = tilecheck({"draw", layout, "--svg", svg_path});
  expect_ok(drawn);
  EXPECT_EQ(drawn.out, "");
  const std::string svg = read_file(svg_path);
  std::smatch size;
  if (!std::regex_search(svg, size, std::regex(R"re(<svg [^>]*width="(\d+)" height="(\d+)")re"))) {
    ADD_FAILURE() << layout << ": no width and height in\n" << svg;
    return "";
  }
  const Output rendered = run_binary(RSVG_CONVERT, {svg_path, "-o", png_path});
  EXPECT_EQ(rendered.exit_code, 0) << layout << ": " << rendered.err
                                   << " (rsvg-convert comes with librsvg2-bin, scripts/deps.sh)";
  EXPECT_EQ(png_size(png_path),
            std::make_pair(int64_t{std::stoll(size[1])}, int64_t{std::stoll(size[2])}))
      << layout;
  std::remove(svg_path.c_str());
  std::remove(png_path.c_str());
  return rendered.exit_code == 0 ? svg : "";
}

TEST(DrawSvg, Figure1) {
  const std::string layout = catalog_layout("doc_figure1");
  const std::string svg = draw_and_render(layout, "figure1");
  EXPECT_EQ(problems_with_svg(svg, layout), std::vector<std::string>{});
  EXPECT_NE(svg.find(R"(class="index" data-element="2,3">17</text>)"), std::string::npos) << svg;
  // One colour per 2x2 tile: elements share a colour iff their index div 4 is equal.
  const impl::IndexPlan plan(parse_shape(layout));
  std::map<int64_t, std::set<std::string>> fills_of_tile;
  std::set<std::string> fills;
  const std::regex grid_rect(R"re(fill="([^"]*)"[^>]* data-element="([0-9]+),([0-9]+)"/>)re");
  for (std::sregex_iterator m(svg.begin(), svg.end(), grid_rect), end; m != end; ++m) {
    const int64_t e[] = {std::stoll((*m)[2]), std::stoll((*m)[3])};
    fills_of_tile[plan.linear_index(e) / 4].insert((*m)[1]);
    fills.insert((*m)[1]);
  }
  EXPECT_EQ(fills_of_tile.size(), 6u);
  EXPECT_EQ(fills.size(), 6u);
  for (const auto& [tile, tile_fills] : fills_of_tile) EXPECT_EQ(tile_fills.size(), 1u) << tile;
  EXPECT_EQ(svg.find("second-level"), std::string::npos) << "one level, nothing to outline";
}

TEST(DrawSvg, Figure2OutlinesTheSecondLevelTiles) {
  const std::string layout = catalog_layout("doc_figure2");
  const std::string svg = draw_and_render(layout, "figure2");
  EXPECT_EQ(problems_with_svg(svg, layout), std::vector<std::string>{});
  // Memory: 32 positions, one outline per 2x1 tile, two cells wide.
  std::smatch cell;
  ASSERT_TRUE(
      std::regex_search(svg, cell, std::regex(R"re(width="(\d+)"[^>]* data-position="0")re")));
  const std::regex outline(R"re(<rect class="second-level" [^>]*width="(\d+)")re");
  int outlines = 0;
  for (std::sregex_iterator m(svg.begin(), svg.end(), outline), end; m != end; ++m, ++outlines) {
    EXPECT_EQ(std::stoll((*m)[1]), 2 * std::stoll(cell[1]));
  }
  EXPECT_EQ(outlines, 16);
  // Grid: the 2x1 tiles of a 4x8 array have edges above rows 0, 2 and 4 in
  // every column and left of columns 0..8 in every row: 3*8 + 9*4.
  const std::regex edge(R"re(<line class="second-level")re");
  EXPECT_EQ(
      std::distance(std::sregex_iterator(svg.begin(), svg.end(), edge), std::sregex_iterator()),
      3 * 8 + 9 * 4);
}

TEST(DrawSvg, EveryCatalogueLayoutDrawsOrIsTooLarge) {
  for (const CatalogEntry& entry : catalog()) {
    const impl::IndexPlan plan(parse_shape(entry.layout));
    const auto& dims = plan.shape().dims;
    const bool fits = plan.padded_element_count() <= 2048 &&
                      (dims.size() < 1 || dims.back() <= 64) &&
                      (dims.size() < 2 || dims[dims.size() - 2] <= 64);
    if (fits) {
      const std::string svg = draw_and_render(std::string(entry.layout), std::string(entry.name));
      EXPECT_EQ(problems_with_svg(svg, std::string(entry.layout)), std::vector<std::string>{})
          << entry.name;
      continue;
    }
    const Output r =
        tilecheck({"draw", std::string(entry.layout), "--svg", temp_path("large.svg")});
    EXPECT_EQ(r.exit_code, 2) << entry.name;
    EXPECT_NE(r.err.find("is too large to draw as SVG"), std::string::npos) << r.err;
  }
}

TEST(DrawSvg, TheImplCheckerCatchesAWrongLabel) {
  const std::string layout = catalog_layout("doc_figure1");
  std::string svg = draw_and_render(layout, "tampered");
  ASSERT_EQ(problems_with_svg(svg, layout), std::vector<std::string>{});
  const std::string label = R"(data-element="2,3">17</text>)";
  ASSERT_NE(svg.find(label), std::string::npos);
  std::string wrong_index = svg;
  wrong_index.replace(wrong_index.find(label), label.size(), R"(data-element="2,3">16</text>)");
  EXPECT_NE(problems_with_svg(wrong_index, layout), std::vector<std::string>{});
  const std::string padding =
      R"(fill="white" stroke="#555" stroke-width="0.5" data-position="9"/>)";
  ASSERT_NE(svg.find(padding), std::string::npos);
  std::string coloured_padding = svg;
  coloured_padding.replace(coloured_padding.find(padding), 12, R"(fill="#8dd3c7")");
  EXPECT_NE(problems_with_svg(coloured_padding, layout), std::vector<std::string>{});
}

TEST(DrawSvg, BadInputExitsTwo) {
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"draw", catalog_layout("tpu_f32"), "--svg", temp_path("x.svg")},
       "too large to draw as SVG"},
      {{"draw", catalog_layout("doc_figure1"), "--svg", "/nonexistent/dir/x.svg"}, "cannot write"},
      {{"draw", "f32[3,5]{1,0:T(0,2)}", "--svg", temp_path("x.svg")}, "layout"},
  };
  for (const auto& [args, message] : cases) {
    const Output r = tilecheck(args);
    EXPECT_EQ(r.exit_code, 2) << args[1];
    EXPECT_EQ(r.err.rfind("error: ", 0), 0u) << r.err;
    EXPECT_NE(r.err.find(message), std::string::npos) << r.err;
  }
}

// docs/figures/ holds the document's two figures as the README shows them.
TEST(DrawSvg, CheckedInFiguresAreCurrent) {
  for (const auto& [file, name] :
       {std::pair{"figure1.svg", "doc_figure1"}, std::pair{"figure2.svg", "doc_figure2"}}) {
    const std::string fresh = temp_path(std::string("fresh_") + file);
    expect_ok(tilecheck({"draw", catalog_layout(name), "--svg", fresh}));
    EXPECT_EQ(first_difference(read_file(kSourceDir + "/docs/figures/" + file), read_file(fresh)),
              "")
        << "regenerate with: tilecheck draw '" << catalog_layout(name) << "' --svg docs/figures/"
        << file;
    std::remove(fresh.c_str());
  }
}

}  // namespace
