// The layouts your code handles, named as a family (docs/TESTING.md,
// "Your own layout family"): one layout text or several, as XLA prints them,
// with '?' for each dim your code takes any size of,
//
//   family("u8[?,?]{1,0:T(32,128)(4,1)}")
//   family({"bf16[?,?]{1,0:T(8,128)(2,1)}", "f32[?,?]{1,0:T(8,128)}"})  // one drawn of the two
//   family("f32[4,?,?]{2,1,0:T(8,128)}", {.max_elements = 1 << 12})
//
// The element type, the layout and every dim written as a number are the
// text's; each open dim is drawn from the sizes that break layout code:
// 0, 1, 2 and 3, a tile minus one, a tile, a tile plus one and several
// tiles, for each tile size (of every level) that lands on that dim and,
// for a sub-byte type, the elements of one byte along the most minor dim;
// a quarter of the time any size up to four of the dim's largest tile,
// ragged. The sizes of a dim are ordered from the smallest, and a case
// shrinks towards the first, so a failure shrinks to the smallest dims that
// still fail. A drawn layout keeps within `max_elements` (the largest open
// dim is cut back to a smaller size of its own until it does).
//
// The draw (draw_family_layout) makes the same choices from any source of
// them: RapidCheck's picks (rapidcheck.h: layouts(family)), libFuzzer's
// bytes (fuzz.h: TILECHECK_FUZZ_PACK(my_pack, claims, family)), a seed.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include <tilecheck/gen/layout_recipe.h>
#include <tilecheck/spec/model.h>

namespace tilecheck::testing {

struct FamilyOptions {
  int64_t max_elements = int64_t{1} << 16;  // logical elements of a drawn layout
  bool zero_dims = true;                    // whether an open dim may be 0
};

class Family {
 public:
  // One member per text: its layout with kSymbolicDim for each '?', and for
  // each dim the sizes drawn for it (empty for a dim written as a number).
  struct Member {
    std::string text;
    ShapeWithLayout pattern;
    std::vector<std::vector<int64_t>> sizes;
    std::vector<int64_t> largest_tile;  // per dim: the largest tile size on it, or 1
  };

  // Throws Error, naming the text, for one that does not parse, that is
  // invalid with its open dims at 1, that has no open dim, or whose written
  // dims alone exceed max_elements.
  explicit Family(const std::vector<std::string>& texts, FamilyOptions options = {});

  const std::vector<Member>& members() const { return members_; }
  const FamilyOptions& options() const { return options_; }
  // The most open dims of any member: how many dims every draw picks.
  size_t open_dims() const { return open_dims_; }
  // "u8[?,?]{1,0:T(32,128)(4,1)}", or the texts joined by " | ".
  std::string text() const;

  // Whether `shape` is a layout of the family: a member's type, layout and
  // written dims, any open dim (0 only when zero_dims).
  bool contains(const ShapeWithLayout& shape) const;
  // The index of the member `shape` belongs to, or -1.
  int64_t member_of(const ShapeWithLayout& shape) const;
  // Member `m` with `dims`, cut back within max_elements: while it is over,
  // the largest open dim becomes the largest of its sizes at most half of
  // it (1 at worst).
  ShapeWithLayout fit(size_t m, std::vector<int64_t> dims) const;

 private:
  std::vector<Member> members_;
  FamilyOptions options_;
  size_t open_dims_ = 0;
};

// One text, a braced list of texts, or a vector of them. (A list is an
// initializer_list so that two string literals never read as a string's
// iterator pair.)
inline Family family(std::string_view text, FamilyOptions options = {}) {
  return Family({std::string(text)}, options);
}
inline Family family(std::initializer_list<std::string_view> texts, FamilyOptions options = {}) {
  return Family(std::vector<std::string>(texts.begin(), texts.end()), options);
}
inline Family family(const std::vector<std::string>& texts, FamilyOptions options = {}) {
  return Family(texts, options);
}

// A layout of `family` from `c`'s choices. The number of choices does not
// depend on earlier ones (a member, then three per open dim of the widest
// member), so a shrinking framework that replays choices by position never
// replays one into another's range; an index past a member's sizes is cut
// to its last.
template <gen::LayoutChoices C>
ShapeWithLayout draw_family_layout(C& c, const Family& family) {
  const size_t m = std::min(static_cast<size_t>(c.in_range(0, static_cast<int64_t>(family.members().size()) - 1)),
                            family.members().size() - 1);
  const Family::Member& member = family.members()[m];
  std::vector<int64_t> dims = member.pattern.dims;
  size_t slot = 0;
  for (size_t d = 0; d < dims.size(); ++d) {
    if (dims[d] != kSymbolicDim) continue;
    const std::vector<int64_t>& sizes = member.sizes[d];
    const bool ragged = gen::sometimes(c, 1, 4);
    const int64_t i = c.in_range(0, static_cast<int64_t>(sizes.size()) - 1);
    const int64_t any = c.in_range(1, 4 * member.largest_tile[d] + 3);
    const size_t k = static_cast<size_t>(std::clamp<int64_t>(i, 0, static_cast<int64_t>(sizes.size()) - 1));
    dims[d] = ragged ? std::max<int64_t>(1, any) : sizes[k];
    ++slot;
  }
  for (; slot < family.open_dims(); ++slot) {  // the same number of choices for every member
    gen::sometimes(c, 1, 4);
    c.in_range(0, 1);
    c.in_range(1, 2);
  }
  return family.fit(m, std::move(dims));
}

}  // namespace tilecheck::testing
