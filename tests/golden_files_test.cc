// The files tilecheck ships for others and the commands that make them:
// `tilecheck vectors` (vectors/v1/, format in docs/VECTORS.md) and
// `tilecheck draw --svg` (docs/figures/). Each checked-in file must equal a
// fresh regeneration byte for byte, and what it says is checked again,
// independently of the spec that wrote it, against the impl (IndexPlan,
// PackPlan), so that neither file certifies itself.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include <tilecheck/impl/plan.h>
#include <tilecheck/spec/catalog.h>
#include <tilecheck/spec/syntax.h>
#include "tests/run_tilecheck.h"
#include "tests/text_match.h"

namespace {

using namespace tilecheck;
using nlohmann::json;
using tilecheck::cli_testing::expect_ok;
using tilecheck::cli_testing::find_all;
using tilecheck::cli_testing::Output;
using tilecheck::cli_testing::read_file;
using tilecheck::cli_testing::run_binary;
using tilecheck::cli_testing::search;
using tilecheck::cli_testing::tilecheck;

const std::string kSourceDir = TILECHECK_SOURCE_DIR;
const std::string kCatalogVectors = kSourceDir + "/vectors/v1/tiled_layouts_test.json";

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

json parse_document(const std::string& text) { return json::parse(text); }

std::vector<std::string> flags_of(const json& test) { return test["flags"]; }

// The bits of a buffer of `plan`'s layout that no element occupies (1 =
// padding), from the impl's index.
std::vector<uint8_t> impl_padding_mask(const impl::IndexPlan& plan) {
  const int64_t bits = plan.shape().element_bits();
  std::vector<uint8_t> mask(static_cast<size_t>(plan.byte_size()), 0xff);
  for_each_element(plan.shape().dims, [&](const std::vector<int64_t>& e) {
    const int64_t first = plan.linear_index_checked(e) * bits;
    for (int64_t bit = first; bit < first + bits; ++bit) mask[bit / 8] &= ~(1u << (bit % 8));
  });
  return mask;
}

// Everything wrong with one layout test group, checked with the impl.
void check_layout_group(const json& group, std::vector<std::string>& problems) {
  const std::string where = "group " + group["id"].get<std::string>() + ": ";
  const std::string layout = group["layout"];
  const ShapeWithLayout shape = parse_shape(layout);
  if (print_shape(shape) != layout) problems.push_back(where + "not canonical");
  const json& f = group["fields"];
  if (f["text"] != layout || f["dims"] != shape.dims ||
      f["minor_to_major"] != shape.layout.minor_to_major ||
      f["element_bits"] != shape.element_bits() ||
      f["element_type"] != std::string(element_type_name(shape.type))) {
    problems.push_back(where + "fields " + f.dump() + " are not the layout's");
  }
  const impl::PackPlan plan(shape);
  const impl::IndexPlan& index = plan.index();
  std::set<std::vector<int64_t>> elements;
  std::vector<int64_t> e(index.rank());
  std::set<std::string> ops;
  for (const json& t : group["tests"]) {
    const std::string op = t["op"], id = t["id"];
    ops.insert(op);
    if (t["result"] != "valid") problems.push_back(id + ": a layout test that is not valid");
    if (op == "size") {
      if (t["elements"] != index.element_count() || t["bytes"] != index.byte_size())
        problems.push_back(id + ": " + t.dump() + ", the impl says " +
                           std::to_string(index.element_count()) + " elements, " +
                           std::to_string(index.byte_size()) + " bytes");
    } else if (op == "linear_index") {
      const std::vector<int64_t> element = t["element"];
      if (!elements.insert(element).second) problems.push_back(id + ": repeated element");
      if (t["index"] != index.linear_index_checked(element))
        problems.push_back(id + ": the impl says " +
                           std::to_string(index.linear_index_checked(element)));
    } else if (op == "delinearize") {
      if (!t["element"].is_null() || index.delinearize(t["position"].get<int64_t>(), e))
        problems.push_back(id + ": the impl says position " + t["position"].dump() + " is not padding");
    } else if (op == "pack" || op == "unpack") {
      const std::vector<uint8_t> dense = from_hex(t["dense_hex"]), packed = from_hex(t["packed_hex"]);
      if (shape.type == ElementType::kPred &&
          std::any_of(dense.begin(), dense.end(), [](uint8_t b) { return b > 1; })) {
        problems.push_back(id + ": a pred value other than 0 or 1");
      }
      std::vector<uint8_t> repacked(index.byte_size()), unpacked(index.dense_byte_size());
      plan.unpack(packed, unpacked);
      if (unpacked != dense) problems.push_back(id + ": the impl unpacks packed_hex differently");
      const std::vector<uint8_t> mask = impl_padding_mask(index);
      const bool has_padding = std::any_of(mask.begin(), mask.end(), [](uint8_t b) { return b; });
      if (op == "pack") {
        plan.pack(dense, repacked);
        if (repacked != packed) problems.push_back(id + ": the impl packs dense_hex differently");
        const std::vector<uint8_t> given =
            t.contains("padding_mask_hex") ? from_hex(t["padding_mask_hex"]) : std::vector<uint8_t>{};
        if (has_padding ? given != mask : !given.empty())
          problems.push_back(id + ": padding_mask_hex is not the impl's padding");
      } else {
        bool noisy = false;  // some padding bit set
        for (size_t i = 0; i < packed.size() && i < mask.size(); ++i) noisy |= (packed[i] & mask[i]) != 0;
        if (!noisy) problems.push_back(id + ": no padding bit is set");
      }
    } else {
      problems.push_back(id + ": unknown op " + op);
    }
  }
  if (!ops.count("size")) problems.push_back(where + "no size test");
  const bool smaller = group.contains("smallerFormOf");
  if (!smaller && !group.contains("packSkipped") && index.element_count() > 0 && !ops.count("pack") &&
      !ops.count("linear_index"))
    problems.push_back(where + "neither index nor pack tests");
  // The first and the last element are always among the chosen ones.
  if (!smaller && index.element_count() > 0) {
    std::vector<int64_t> first(index.rank(), 0), last;
    for (const int64_t d : index.shape().dims) last.push_back(d - 1);
    if (!elements.count(first) || !elements.count(last))
      problems.push_back(where + "the first or the last element is missing");
  }
}

// Everything wrong with a vector file (docs/VECTORS.md), checked with the
// impl, not the spec: the document's keys, unique ids, flags explained in the
// notes, smaller forms that are smaller, and every value of every test.
std::vector<std::string> problems_with_vectors(const std::string& text) {
  std::vector<std::string> problems;
  json doc;
  try {
    doc = parse_document(text);
  } catch (const std::exception& e) {
    return {std::string("not JSON: ") + e.what()};
  }
  if (doc["format"] != "tilecheck tiled layout vectors" || doc["formatVersion"] != 1 ||
      doc["schema"] != "tiled_layouts_schema_v1.json")
    problems.push_back("not a format 1 document");
  std::set<std::string> ids;
  std::map<std::string, json> groups_by_id;
  int64_t tests = 0;
  for (const json& group : doc["testGroups"]) {
    for (const json& t : group["tests"]) {
      ++tests;
      if (!ids.insert(t["id"].get<std::string>()).second) problems.push_back("repeated id " + t["id"].dump());
      for (const std::string& flag : flags_of(t)) {
        if (!doc["notes"].contains(flag)) problems.push_back(t["id"].get<std::string>() + ": flag " + flag + " has no note");
      }
    }
    try {
      if (group["type"] == "LayoutTest") {
        if (group.contains("smallerFormOf")) {
          const auto of = groups_by_id.find(group["smallerFormOf"]);
          if (of == groups_by_id.end()) {
            problems.push_back(group["id"].get<std::string>() + ": smallerFormOf names no earlier group");
          } else {
            const ShapeWithLayout big = parse_shape(of->second["layout"].get<std::string>());
            const ShapeWithLayout form = parse_shape(group["layout"].get<std::string>());
            bool is_smaller = form.type == big.type && form.layout == big.layout &&
                              form.rank() == big.rank() && !(form.dims == big.dims);
            for (int64_t i = 0; is_smaller && i < form.rank(); ++i) is_smaller = form.dims[i] <= big.dims[i];
            if (!is_smaller) problems.push_back(group["id"].get<std::string>() + " is not a smaller form");
          }
        }
        groups_by_id[group["id"]] = group;
        check_layout_group(group, problems);
      } else if (group["type"] != "ParseTest") {
        problems.push_back("a group of unknown type " + group["type"].dump());
      }
    } catch (const std::exception& e) {
      problems.push_back("group " + group.value("id", std::string("?")) + ": " + e.what());
    }
  }
  if (doc["numberOfTests"] != tests) problems.push_back("numberOfTests is not the number of tests");
  return problems;
}

const json& find_test(const json& doc, const std::string& id) {
  for (const json& group : doc["testGroups"]) {
    for (const json& t : group["tests"]) {
      if (t["id"] == id) return t;
    }
  }
  static const json none;
  ADD_FAILURE() << "no test " << id;
  return none;
}

TEST(Vectors, TestsOfOneLayout) {
  const Output r = tilecheck({"vectors", "F32[3, 5]{1,0:T(2,2)}", "--count", "4"});
  expect_ok(r);
  const json doc = parse_document(r.out);
  ASSERT_EQ(doc["testGroups"].size(), 1u);
  const json& group = doc["testGroups"][0];
  EXPECT_EQ(group["layout"], "f32[3,5]{1,0:T(2,2)}");
  const std::string id = "f32[3,5]{1,0:T(2,2)}";
  EXPECT_EQ(find_test(doc, id + "/size")["bytes"], 96);
  EXPECT_EQ(find_test(doc, id + "/index[0,0]")["index"], 0);
  EXPECT_EQ(find_test(doc, id + "/index[2,4]")["index"], 20);
  const json& pack = find_test(doc, id + "/pack");
  EXPECT_EQ(pack["dense_hex"].get<std::string>().size(), 2u * 15 * 4);
  EXPECT_EQ(pack["packed_hex"].get<std::string>().size(), 2u * 96);
  EXPECT_EQ(flags_of(pack), (std::vector<std::string>{"Ragged", "Padding"}));
  EXPECT_EQ(find_test(doc, id + "/unpack_nonzero_padding")["op"], "unpack");
  EXPECT_EQ(doc["numberOfTests"], group["tests"].size());
  EXPECT_EQ(problems_with_vectors(r.out), std::vector<std::string>{});
  // Each test on a line of its own.
  EXPECT_NE(r.out.find("\n        {\"id\":\"f32[3,5]{1,0:T(2,2)}/size\",\"op\":\"size\","), std::string::npos);
}

TEST(Vectors, AllElementsRowMajorWhenTheCountCoversThem) {
  const Output r = tilecheck({"vectors", catalog_layout("doc_figure1"), "--count", "15"});
  expect_ok(r);
  std::vector<json> elements;
  const json doc = parse_document(r.out);
  for (const json& t : doc["testGroups"][0]["tests"]) {
    if (t["op"] == "linear_index") elements.push_back(t["element"]);
  }
  ASSERT_EQ(elements.size(), 15u);
  for (int i = 0; i < 15; ++i) EXPECT_EQ(elements[i], json::array({i / 5, i % 5}));
}

TEST(Vectors, DeterministicForASeedAndIndependentOfOtherLayouts) {
  const std::string a = catalog_layout("tpu_bf16_ragged"), b = catalog_layout("u2_tiled");
  const Output both = tilecheck({"vectors", a, b, "--seed", "7"});
  expect_ok(both);
  EXPECT_EQ(tilecheck({"vectors", a, b, "--seed", "7"}).out, both.out);
  const json together = parse_document(both.out);
  const json alone = parse_document(tilecheck({"vectors", b, "--seed", "7"}).out);
  EXPECT_EQ(together["testGroups"].back(), alone["testGroups"].back());
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
  const json doc = parse_document(r.out);
  for (const json& t : doc["testGroups"][0]["tests"]) {
    if (t["op"] != "linear_index") continue;
    const int64_t row = t["element"][0], col = t["element"][1];
    at_corner += (row % 8 == 0 || row % 8 == 7) && (col % 128 == 0 || col % 128 == 127);
  }
  EXPECT_GE(at_corner, 8) << r.out;
}

TEST(Vectors, LargeLayoutsPackASmallerForm) {
  const Output r = tilecheck({"vectors", catalog_layout("tpu_f32"), "--count", "2"});
  expect_ok(r);
  const json doc = parse_document(r.out);
  ASSERT_EQ(doc["testGroups"].size(), 2u);
  const json& small = doc["testGroups"][1];
  EXPECT_EQ(small["smallerFormOf"], "f32[16,256]{1,0:T(8,128)}");
  EXPECT_EQ(small["layout"], "f32[16,17]{1,0:T(8,128)}");
  EXPECT_EQ(flags_of(small["tests"][0]).back(), "SmallerForm");
  EXPECT_EQ(problems_with_vectors(r.out), std::vector<std::string>{});
  // Sizes near int64's limit: tests all the same, without overflowing.
  const Output huge = tilecheck({"vectors", "pred[3000000000,3000000000]{1,0:E(1)}", "--count", "3"});
  expect_ok(huge);
  EXPECT_EQ(problems_with_vectors(huge.out), std::vector<std::string>{});
  // A tile larger than the limit: no form fits.
  const Output big_tile = tilecheck({"vectors", "f32[4096]{0:T(4096)}", "--count", "1"});
  expect_ok(big_tile);
  EXPECT_EQ(parse_document(big_tile.out)["testGroups"][0]["packSkipped"],
            "one tile of this layout is above the 8192-byte limit for pack tests");
}

TEST(Vectors, ListGivesOneLinePerTest) {
  const Output r = tilecheck({"vectors", "--catalog", "--list"});
  expect_ok(r);
  const std::vector<std::string> lines = lines_of(r.out);
  EXPECT_EQ(static_cast<int64_t>(lines.size()),
            parse_document(read_file(kCatalogVectors))["numberOfTests"].get<int64_t>());
  EXPECT_NE(std::find(lines.begin(), lines.end(), "doc_figure1/index[2,4]\tvalid\tRagged,Padding"),
            lines.end());
  EXPECT_NE(std::find(lines.begin(), lines.end(), "parse/m2m_repeated\tinvalid\t"), lines.end());
  EXPECT_NE(std::find(lines.begin(), lines.end(),
                      "parse/element_size_pred\tacceptable\tUntiled,Padding,SubByte,Pred,"
                      "ElementSize,ElementSizeOnPred"),
            lines.end());
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
      << "regenerate with: tilecheck vectors --catalog > vectors/v1/tiled_layouts_test.json";
}

TEST(Vectors, CheckedInCatalogAgreesWithTheImpl) {
  const std::string text = read_file(kCatalogVectors);
  EXPECT_EQ(problems_with_vectors(text), std::vector<std::string>{});
  const json doc = parse_document(text);
  std::set<std::string> own_groups;
  std::map<std::string, int> ops, results;
  std::set<std::string> packed;  // groups with pack data, a smaller form's counted for its layout
  for (const json& group : doc["testGroups"]) {
    if (group["type"] == "LayoutTest" && !group.contains("smallerFormOf")) own_groups.insert(group["id"]);
    for (const json& t : group["tests"]) {
      ++ops[t["op"]];
      ++results[t["result"]];
      if (t["op"] == "pack") packed.insert(group.value("smallerFormOf", group["id"].get<std::string>()));
    }
  }
  EXPECT_EQ(own_groups.size(), catalog().size());
  // Every catalogue layout has pack data, its own or a smaller form's.
  EXPECT_EQ(packed.size(), catalog().size());
  EXPECT_GE(ops["linear_index"], 400);
  EXPECT_GE(ops["delinearize"], 40);
  EXPECT_GE(ops["unpack"], 20);
  EXPECT_EQ(ops["parse"], static_cast<int>(parse_cases().size()));
  EXPECT_GE(results["invalid"], 20);
  EXPECT_GE(results["acceptable"], 3);
}

// The checker above must catch a wrong file: one wrong value of each kind.
TEST(Vectors, TheImplCheckerCatchesATamperedFile) {
  const Output r = tilecheck({"vectors", catalog_layout("u2_tiled"), "--count", "8"});
  expect_ok(r);
  ASSERT_EQ(problems_with_vectors(r.out), std::vector<std::string>{});
  const auto tampered = [&](const std::string& from, const std::string& to) {
    std::string text = r.out;
    const size_t at = text.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    return at == std::string::npos ? text : text.replace(at, from.size(), to);
  };
  const json doc = parse_document(r.out);
  const std::string id = "u2[6,10]{1,0:T(4,4)}";
  const int64_t bytes = find_test(doc, id + "/size")["bytes"];
  EXPECT_NE(problems_with_vectors(tampered("\"bytes\":" + std::to_string(bytes) + ",",
                                           "\"bytes\":" + std::to_string(bytes + 1) + ",")),
            std::vector<std::string>{});
  const std::string index = std::to_string(find_test(doc, id + "/index[5,9]")["index"].get<int64_t>());
  EXPECT_NE(problems_with_vectors(tampered(R"("element":[5,9],"index":)" + index,
                                           R"("element":[5,9],"index":)" + index + "1")),
            std::vector<std::string>{});
  EXPECT_NE(problems_with_vectors(tampered(R"("packed_hex":")", R"("packed_hex":"ff)")),
            std::vector<std::string>{});
  EXPECT_NE(problems_with_vectors(tampered(R"("padding_mask_hex":"00)", R"("padding_mask_hex":"01)")),
            std::vector<std::string>{});
  EXPECT_NE(problems_with_vectors(tampered(R"("op":"delinearize","position":)",
                                           R"("op":"delinearize","position":0,"x":)")),
            std::vector<std::string>{});
  EXPECT_NE(problems_with_vectors(tampered(R"("flags":["Ragged")", R"("flags":["Wobbly")")),
            std::vector<std::string>{});
  EXPECT_NE(problems_with_vectors(tampered(R"("numberOfTests": )", R"("numberOfTests": 1)")),
            std::vector<std::string>{});
  // A "smaller form" that is not one, and a pred value that is not 0 or 1.
  const Output large = tilecheck({"vectors", catalog_layout("tpu_f32"), "--count", "2"});
  ASSERT_EQ(problems_with_vectors(large.out), std::vector<std::string>{});
  std::string not_smaller = large.out;
  const size_t form = not_smaller.find(R"("layout": "f32[16,17])");
  ASSERT_NE(form, std::string::npos) << large.out;
  not_smaller.replace(form, 21, R"("layout": "f32[16,300])");
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
  for (const auto& m : find_all(svg, R"re(<rect [^>]*fill="([^"]*)"[^>]* data-element="([0-9,]*)"/>)re")) {
    grid_fill[coordinates(m[2])] = m[1];
  }
  int64_t labelled = 0;
  for (const auto& m : find_all(svg, R"re(class="index" data-element="([0-9,]*)">([0-9]+)</text>)re")) {
    ++labelled;
    const int64_t expected = plan.linear_index_checked(coordinates(m[1]));
    if (std::stoll(m[2]) != expected) {
      problems.push_back("element (" + m[1] + ") labelled " + m[2] + ", the impl says " + std::to_string(expected));
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
  for (const auto& m : find_all(svg, R"re(class="element" data-position="([0-9]+)">([^<]*)</text>)re")) {
    position_label[std::stoll(m[1])] = m[2];
  }
  int64_t positions = 0;
  std::vector<int64_t> e(rank);
  for (const auto& m : find_all(svg, R"re(<rect [^>]*fill="([^"]*)"[^>]* data-position="([0-9]+)"/>)re")) {
    const int64_t p = std::stoll(m[2]);
    const std::string fill = m[1], where = "position " + std::to_string(p) + ": ";
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
  std::vector<std::string> size;
  if (!search(svg, R"re(<svg [^>]*width="(\d+)" height="(\d+)")re", &size)) {
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
  for (const auto& m : find_all(svg, R"re(fill="([^"]*)"[^>]* data-element="([0-9]+),([0-9]+)"/>)re")) {
    const int64_t e[] = {std::stoll(m[2]), std::stoll(m[3])};
    fills_of_tile[plan.linear_index(e) / 4].insert(m[1]);
    fills.insert(m[1]);
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
  std::vector<std::string> cell;
  ASSERT_TRUE(search(svg, R"re(width="(\d+)"[^>]* data-position="0")re", &cell));
  const auto outlines = find_all(svg, R"re(<rect class="second-level" [^>]*width="(\d+)")re");
  for (const auto& m : outlines) EXPECT_EQ(std::stoll(m[1]), 2 * std::stoll(cell[1]));
  EXPECT_EQ(outlines.size(), 16u);
  // Grid: the 2x1 tiles of a 4x8 array have edges above rows 0, 2 and 4 in
  // every column and left of columns 0..8 in every row: 3*8 + 9*4.
  EXPECT_EQ(find_all(svg, R"re(<line class="second-level")re").size(), 3u * 8 + 9 * 4);
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

// docs/figures/ holds the document's two figures as docs/COMMANDS.md shows them.
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
