// Properties of the spec alone (docs/PROPERTIES.md: 2, 3, 6 and the spec half
// of 7): the spec's two formulations agree, the index is a bijection onto the
// non-padding positions, the text syntax round-trips, and invalid input is an
// Error, never a crash.
#include <rapidcheck.h>

#include <cctype>
#include <string>
#include <vector>

#include <tilecheck/gen/sweep.h>
#include "properties/property_registry.h"
#include "properties/rc_layout_gen.h"
#include <tilecheck/spec/reshape_formulation.h>
#include <tilecheck/spec/semantics.h>
#include <tilecheck/spec/syntax.h>

namespace tilecheck::props {
namespace {

// 2. The document's formula == its pad-reshape-transpose formulation, for
// every element, and the final shapes agree.
void FormulaEqualsReshapeFormulation() {
  const ShapeWithLayout shape = *gen_layout(kExhaustiveLimits);
  RC_ASSERT(spec::tiled_shape(shape) == spec::tiled_shape_by_reshape(shape));
  for_each_element(shape, [&](const std::vector<int64_t>& e) {
    RC_ASSERT(spec::linear_index(shape, e) == spec::linear_index_by_reshape(shape, e));
  });
}

// 3. delinearize(linear_index(e)) == e; each position is padding or hit by
// exactly one element; the hit positions number element_count; every
// position is below the padded count.
void IndexIsABijectionOntoNonPadding() {
  const ShapeWithLayout shape = *gen_layout(kExhaustiveLimits);
  // One validation, then the spec's templates directly: the per-call
  // validation of the oracle functions would dominate an exhaustive sweep.
  spec::validate(shape);
  spec::Int64Domain a;
  const int64_t padded = spec::padded_element_count(shape);
  const int64_t unpadded = spec::product(a, spec::tiled_shape(shape));  // before L(n)
  std::vector<bool> hit(static_cast<size_t>(padded), false);
  int64_t hits = 0;
  for_each_element(shape, [&](const std::vector<int64_t>& e) {
    const int64_t p = spec::linear_index_with_tile(a, shape.dims, shape.layout, e);
    RC_ASSERT(p >= 0);
    RC_ASSERT(p < padded);
    RC_ASSERT(!hit[p]);
    hit[p] = true;
    ++hits;
    const spec::Untiled<spec::Int64Domain> back = spec::delinearize(a, shape.dims, shape.layout, p);
    RC_ASSERT(back.in_bounds);
    RC_ASSERT(back.index == e);
  });
  RC_ASSERT(hits == spec::element_count(shape));
  for (int64_t p = 0; p < unpadded; ++p) {
    if (!hit[p]) RC_ASSERT(!spec::delinearize(a, shape.dims, shape.layout, p).in_bounds);
  }
  // The oracle's checked entry point agrees at the ends of the range.
  if (padded > 0) {
    RC_ASSERT(spec::delinearize(shape, padded - 1).has_value() == hit[padded - 1]);
    RC_ASSERT(spec::delinearize(shape, 0).has_value() == hit[0]);
  }
  RC_ASSERT_THROWS_AS(spec::delinearize(shape, padded), Error);
}

// A non-canonical spelling of a canonical text: the type in upper case, a
// space after every comma, and the braces dropped when the layout is the
// default one.
std::string respell(const ShapeWithLayout& shape, const std::string& canonical) {
  std::string text;
  const size_t bracket = canonical.find('[');
  for (size_t i = 0; i < canonical.size(); ++i) {
    const char ch = canonical[i];
    text += i < bracket ? static_cast<char>(std::toupper(static_cast<unsigned char>(ch))) : ch;
    if (ch == ',') text += ' ';
  }
  if (shape.layout == default_layout(shape.rank())) text = text.substr(0, text.find('{'));
  return text;
}

// 6a. parse(print(L)) == L; print(parse(s)) is canonical and stable.
void TextRoundTrips() {
  const ShapeWithLayout shape = *gen_layout();
  const std::string canonical = print_shape(shape);
  RC_ASSERT(parse_shape(canonical) == shape);
  const std::string respelled = respell(shape, canonical);
  RC_ASSERT(print_shape(parse_shape(respelled)) == canonical);
  RC_ASSERT(print_shape(parse_shape(print_shape(parse_shape(respelled)))) == canonical);
}

// 6a. The same for every shape XLA prints: tuples (with their /*index=N*/
// annotations), tokens, dynamic dims, split configs, index and pointer
// types, physical shapes, M(n); and the text stays the same when spaces are
// added after every comma (XLA's tuple separator).
void XlaTextRoundTrips() {
  const Shape shape = *gen_xla_shape();
  const std::string canonical = print_any_shape(shape);
  RC_LOG() << canonical << "\n";
  RC_ASSERT(parse_any_shape(canonical) == shape);
  RC_ASSERT(print_any_shape(parse_any_shape(canonical)) == canonical);
  std::string spaced;
  for (char ch : canonical) {
    spaced += ch;
    if (ch == ',') spaced += ' ';
  }
  RC_ASSERT(print_any_shape(parse_any_shape(spaced)) == canonical);
}

// 6b. Invalid layouts are an Error (from the parser or the validation),
// never a crash; syntax errors name a column inside the text (or just past
// its end).
void InvalidTextIsAnError() {
  const InvalidLayout invalid = *gen_invalid_layout();
  RC_TAG(invalid_kind_name(invalid.kind));
  try {
    spec::validate(parse_shape(invalid.text));
  } catch (const Error& e) {
    if (invalid.kind == InvalidKind::kSyntax) {
      RC_ASSERT(e.column() >= 1);
      RC_ASSERT(e.column() <= static_cast<int64_t>(invalid.text.size()) + 1);
    }
    return;
  }
  RC_FAIL("accepted invalid layout text");
}

// 6c. Arbitrary edits of a valid text never crash the parser: the result is
// an Error or a layout that round-trips.
void EditedTextParsesOrErrors() {
  const std::string valid = print_shape(*gen_layout());
  std::string text = valid;
  const int edits = *rc::gen::inRange(1, 4);
  for (int i = 0; i < edits; ++i) {
    const size_t at = *rc::gen::inRange<size_t>(0, text.size() + 1);
    const char ch = *rc::gen::elementOf(std::string("0123456789,*:()[]{}?TLESf sx-"));
    if (*rc::gen::arbitrary<bool>() && at < text.size()) {
      text.erase(at, 1);
    } else {
      text.insert(at, 1, ch);
    }
  }
  RC_LOG() << "text: " << text << "\n";
  try {
    const ShapeWithLayout shape = parse_shape(text);
    RC_ASSERT(parse_shape(print_shape(shape)) == shape);
  } catch (const Error&) {
  }
}

// 7 (spec half). The final shape's product, rounded to L(n), is the padded
// count; the byte size is exactly ceil(padded * bits / 8) (D6), computed here
// in 128 bits; padding never loses elements.
void SizesFollowD5AndD6() {
  const ShapeWithLayout shape = *gen_layout();
  const std::vector<int64_t> tiled = spec::tiled_shape(shape);
  __int128 product = 1;
  for (int64_t d : tiled) product *= d;
  const __int128 align = shape.layout.tail_padding_alignment.value_or(1);
  const __int128 padded = (product + align - 1) / align * align;
  RC_ASSERT(spec::padded_element_count(shape) == static_cast<int64_t>(padded));
  RC_ASSERT(spec::byte_size(shape) == static_cast<int64_t>((padded * shape.element_bits() + 7) / 8));
  RC_ASSERT(spec::padded_element_count(shape) >= spec::element_count(shape));
  RC_ASSERT(spec::dense_byte_size(shape) ==
            spec::element_count(shape) * ((shape.element_bits() + 7) / 8));
}

}  // namespace

std::vector<PropertyInfo> spec_property_suite() {
  return {
      {"SpecProperties", "FormulaEqualsReshapeFormulation", "p2_reshape",
       "2. spec formula == spec pad-reshape-transpose formulation, every element", &FormulaEqualsReshapeFormulation},
      {"SpecProperties", "IndexIsABijectionOntoNonPadding", "p3_bijection",
       "3. delinearize(linear_index(e)) == e; each position padding or hit once", &IndexIsABijectionOntoNonPadding},
      {"SpecProperties", "TextRoundTrips", "p6_text_round_trip",
       "6. parse(print(L)) == L; print(parse(s)) canonical and stable", &TextRoundTrips},
      {"SpecProperties", "XlaTextRoundTrips", "p6_xla_text_round_trip",
       "6. parse(print(S)) == S for every XLA shape: tuples, <=N, SC, #, *, P, M", &XlaTextRoundTrips},
      {"SpecProperties", "InvalidTextIsAnError", "p6_invalid_text",
       "6. invalid layout text is an Error with a column, never a crash", &InvalidTextIsAnError},
      {"SpecProperties", "EditedTextParsesOrErrors", "p6_edited_text",
       "6. edited layout text parses (and round-trips) or is an Error", &EditedTextParsesOrErrors},
      {"SpecProperties", "SizesFollowD5AndD6", "p7_spec_sizes",
       "7. spec padded count and byte size follow D5 and D6 exactly", &SizesFollowD5AndD6},
  };
}

}  // namespace tilecheck::props
