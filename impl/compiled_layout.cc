#include "impl/compiled_layout.h"

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <optional>
#include <utility>

namespace tilecheck::impl::detail {

int64_t checked_mul(int64_t a, int64_t b, const char* what) {
  int64_t r;
  if (__builtin_mul_overflow(a, b, &r)) throw Error(std::string(what) + " overflows int64");
  return r;
}
int64_t checked_add(int64_t a, int64_t b, const char* what) {
  int64_t r;
  if (__builtin_add_overflow(a, b, &r)) throw Error(std::string(what) + " overflows int64");
  return r;
}

namespace {

int64_t ceil_div(int64_t a, int64_t b) { return a / b + (a % b != 0 ? 1 : 0); }

// The shape of one level: which coordinates each non-'*' tile entry covers.
Level level_shape(const Tile& tile, int64_t rank) {
  Level level;
  const int64_t m = static_cast<int64_t>(tile.dims.size());
  level.extension = std::max<int64_t>(0, m - rank);
  level.rank_in = rank + level.extension;
  level.prefix = level.rank_in - m;
  level.groups.reserve(m);  // at most one group per entry
  int64_t start = 0;
  for (int64_t i = 0; i < m; ++i) {
    if (tile.dims[i] == kCombineDim) continue;  // merges into the next entry
    Group g;
    g.first = level.prefix + start;
    g.tile = tile.dims[i];
    g.member_bounds.resize(i - start + 1);
    g.member_divs.reserve(i - start + 1);
    level.groups.push_back(std::move(g));
    start = i + 1;
  }
  return level;
}

// ---------------------------------------------------------------------------
// Index program construction: coordinates as linear expressions over registers.
using Expr = std::vector<IndexProgram::Term>;

void add_scaled(Expr& into, const Expr& e, int64_t scale) {
  for (const auto& t : e) {
    const int64_t c = checked_mul(t.coeff, scale, "index coefficient");
    auto it = std::find_if(into.begin(), into.end(), [&](const auto& x) { return x.reg == t.reg; });
    if (it == into.end()) {
      into.push_back({t.reg, c});
    } else {
      it->coeff = checked_add(it->coeff, c, "index coefficient");
    }
  }
}

// ---------------------------------------------------------------------------
// Loop-nest lowering: a tree of coordinate nodes.
struct Node {
  enum Kind { kUnset, kLeaf, kSplit, kMember, kZero } kind = kUnset;
  int64_t extent = 1;
  int64_t stride = 0;  // dense elements per unit of this coordinate
  int64_t outer = -1, inner = -1, tile = 1;
  int64_t digit = -1;
};

class Lowering {
 public:
  Lowering(const CompiledLayout& c, const std::vector<int64_t>& dense_strides)
      : c_(c), dense_strides_(dense_strides) {}

  LoopNest run() {
    LoopNest nest;
    try {
      build();
    } catch (const Unlowerable& u) {
      nest.reason = u.reason;
      return nest;
    }
    const int64_t nf = static_cast<int64_t>(c_.final_shape.size());
    // Digits before simplification.
    std::vector<Digit> digits(nf);
    int64_t dst = 1;
    for (int64_t j = nf - 1; j >= 0; --j) {
      digits[j] = {c_.final_shape[j], nodes_[final_nodes_[j]].stride, dst};
      dst *= c_.final_shape[j];
    }
    std::vector<Constraint> constraints;
    values_.assign(nodes_.size(), std::nullopt);
    done_.assign(nodes_.size(), false);
    try {
      for (size_t n = 0; n < nodes_.size(); ++n) {
        const auto& v = value(n);
        if (v) {
          int64_t max = 0;
          bool reaches = false;
          for (const Term& t : *v) {
            int64_t term;
            if (__builtin_mul_overflow(t.coeff, c_.final_shape[t.digit] - 1, &term) ||
                __builtin_add_overflow(max, term, &max)) {
              reaches = true;
              break;
            }
          }
          if (reaches || max >= nodes_[n].extent) {
            Constraint k{std::vector<int64_t>(nf, 0), nodes_[n].extent};
            for (const Term& t : *v) k.coeff[t.digit] = t.coeff;
            if (std::find_if(constraints.begin(), constraints.end(), [&](const Constraint& x) {
                  return x.coeff == k.coeff && x.bound == k.bound;
                }) == constraints.end()) {
              constraints.push_back(std::move(k));
            }
          }
        } else if (nodes_[n].kind == Node::kSplit &&
                   ceil_div(nodes_[n].extent, nodes_[n].tile) * nodes_[n].tile != nodes_[n].extent) {
          throw Unlowerable{"a ragged tile above combined dims"};
        }
      }
    } catch (const Unlowerable& u) {
      nest.reason = u.reason;
      return nest;
    }
    simplify(digits, constraints);
    if (digits.empty()) digits.push_back({1, 0, 1});  // a single element
    nest.lowered = true;
    nest.digits = std::move(digits);
    nest.constraints = std::move(constraints);
    return nest;
  }

 private:
  struct Unlowerable {
    std::string reason;
  };

  int64_t add(Node n) {
    nodes_.push_back(n);
    return static_cast<int64_t>(nodes_.size()) - 1;
  }

  void build() {
    std::vector<int64_t> coords;
    for (int64_t j = 0; j < c_.rank; ++j) {
      const int64_t l = c_.logical_of_physical[j];
      coords.push_back(add({Node::kUnset, c_.shape.dims[l], dense_strides_[l]}));
    }
    for (const Level& level : c_.levels) {
      std::vector<int64_t> in(level.extension);
      for (auto& x : in) x = add({Node::kUnset, 1, 0});
      in.insert(in.end(), coords.begin(), coords.end());
      std::vector<int64_t> out(in.begin(), in.begin() + level.prefix), inners;
      for (const Group& g : level.groups) {
        std::vector<int64_t> members;
        for (size_t m = 0; m < g.member_bounds.size(); ++m) {
          const int64_t id = in[g.first + m];
          if (nodes_[id].extent == 1) {
            nodes_[id].kind = Node::kZero;  // always 0: contributes nothing
          } else {
            members.push_back(id);
          }
        }
        int64_t group;
        if (members.empty()) {
          group = add({Node::kUnset, 1, 0});
        } else if (members.size() == 1) {
          group = members[0];
        } else {
          for (size_t m = 0; m + 1 < members.size(); ++m) {
            int64_t nested;
            if (__builtin_mul_overflow(nodes_[members[m + 1]].extent, nodes_[members[m + 1]].stride,
                                       &nested) ||
                nested != nodes_[members[m]].stride) {
              throw Unlowerable{"combined dims whose dense strides do not nest"};
            }
          }
          for (int64_t id : members) nodes_[id].kind = Node::kMember;
          group = add({Node::kUnset, g.bound, nodes_[members.back()].stride});
        }
        const int64_t outer_extent = ceil_div(g.bound, g.tile);
        int64_t outer_stride = 0;
        if (outer_extent > 1 &&
            __builtin_mul_overflow(nodes_[group].stride, g.tile, &outer_stride)) {
          throw Unlowerable{"stride overflow"};
        }
        const int64_t outer = add({Node::kUnset, outer_extent, outer_stride});
        const int64_t inner = add({Node::kUnset, g.tile, nodes_[group].stride});
        Node& gn = nodes_[group];
        gn.kind = Node::kSplit;
        gn.outer = outer;
        gn.inner = inner;
        gn.tile = g.tile;
        out.push_back(outer);
        inners.push_back(inner);
      }
      out.insert(out.end(), inners.begin(), inners.end());
      coords = std::move(out);
    }
    final_nodes_ = coords;
    for (size_t j = 0; j < coords.size(); ++j) {
      nodes_[coords[j]].kind = Node::kLeaf;
      nodes_[coords[j]].digit = static_cast<int64_t>(j);
    }
  }

  // A node's value: the nonzero coefficients over the digits, by digit.
  // Sparse, because most nodes touch one or two digits: a dense vector per
  // node would take rank^2 memory (80 GB for an array of 100,000 dims).
  struct Term {
    int64_t digit, coeff;
  };
  using Value = std::vector<Term>;

  // The node's value, or nullopt when it is not linear (a member of a
  // combined group).
  const std::optional<Value>& value(size_t n) {
    if (done_[n]) return values_[n];
    std::optional<Value> v;
    const Node& node = nodes_[n];
    switch (node.kind) {
      case Node::kLeaf:
        v.emplace();
        if (c_.final_shape[node.digit] > 1) v->push_back({node.digit, 1});
        break;
      case Node::kZero:
        v.emplace();
        break;
      case Node::kSplit: {
        const auto& o = value(node.outer);
        const auto& i = value(node.inner);
        if (o && i) {
          // outer * tile + inner, merged by digit.
          v.emplace();
          size_t a = 0, b = 0;
          while (a < o->size() || b < i->size()) {
            const int64_t da = a < o->size() ? (*o)[a].digit : INT64_MAX;
            const int64_t db = b < i->size() ? (*i)[b].digit : INT64_MAX;
            int64_t x = 0, y = 0;
            if (da <= db && __builtin_mul_overflow((*o)[a].coeff, node.tile, &x)) {
              throw Unlowerable{"coefficient overflow"};
            }
            if (db <= da) y = (*i)[b].coeff;
            Term t{std::min(da, db), 0};
            if (__builtin_add_overflow(x, y, &t.coeff)) throw Unlowerable{"coefficient overflow"};
            if (t.coeff != 0) v->push_back(t);
            if (da <= db) ++a;
            if (db <= da) ++b;
          }
        }
        break;
      }
      case Node::kMember:
      case Node::kUnset:
        break;
    }
    done_[n] = true;
    values_[n] = std::move(v);
    return values_[n];
  }

  // Drops digits of extent 1 and merges neighbours that form one mixed-radix
  // digit on both sides and in every constraint.
  static void simplify(std::vector<Digit>& digits, std::vector<Constraint>& constraints) {
    for (size_t j = digits.size(); j-- > 0;) {
      if (digits[j].extent == 1) {
        digits.erase(digits.begin() + j);
        for (auto& k : constraints) k.coeff.erase(k.coeff.begin() + j);
      }
    }
    for (size_t j = digits.size(); j-- > 1;) {
      const Digit& a = digits[j - 1];
      const Digit& b = digits[j];
      auto nests = [&](int64_t outer, int64_t inner) {
        int64_t x;
        return !__builtin_mul_overflow(b.extent, inner, &x) && x == outer;
      };
      bool ok = nests(a.src_stride, b.src_stride) && nests(a.dst_stride, b.dst_stride);
      for (const auto& k : constraints) ok = ok && nests(k.coeff[j - 1], k.coeff[j]);
      if (!ok) continue;
      digits[j - 1] = {a.extent * b.extent, b.src_stride, b.dst_stride};
      digits.erase(digits.begin() + j);
      for (auto& k : constraints) k.coeff.erase(k.coeff.begin() + (j - 1));
    }
    // A constraint no longer touching any digit is always satisfied.
    std::erase_if(constraints, [](const Constraint& k) {
      return std::all_of(k.coeff.begin(), k.coeff.end(), [](int64_t c) { return c == 0; });
    });
  }

  const CompiledLayout& c_;
  const std::vector<int64_t>& dense_strides_;
  std::vector<Node> nodes_;
  std::vector<int64_t> final_nodes_;
  std::vector<std::optional<Value>> values_;
  std::vector<bool> done_;
};

}  // namespace

CompiledLayout compile_layout(const ShapeWithLayout& shape) {
  validate_structure(shape);
  require_concrete(shape);
  CompiledLayout c;
  c.shape = shape;
  c.rank = shape.rank();
  c.bits = shape.element_bits();
  c.dense_element_bytes = shape.dense_element_bytes();

  c.element_count = 1;
  for (int64_t d : shape.dims) c.element_count = checked_mul(c.element_count, d, "element count");
  // An empty array is valid whenever the spec's sizes fit, yet the strides
  // and coefficients derived from its other dims may not (f32[0,2^62,4]):
  // it has no element to index or move, so none of them is computed.
  const bool empty = c.element_count == 0;
  // Non-empty: each stride is a suffix product of dims >= 1 whose whole
  // product fits, so it fits too.
  c.dense_strides.assign(c.rank, empty ? 0 : 1);
  for (int64_t l = c.rank - 2; l >= 0 && !empty; --l) {
    c.dense_strides[l] = checked_mul(c.dense_strides[l + 1], shape.dims[l + 1], "dense stride");
  }
  // The dense buffer's size, -1 when it does not fit int64 (2^62 + 1 elements
  // of E(9) take two dense bytes each): the layout is still valid (D9 counts
  // the physical byte size, not this), so only what needs a dense buffer --
  // a pack plan, IndexPlan::dense_byte_size -- refuses it, as
  // spec::dense_byte_size does.
  if (__builtin_mul_overflow(c.element_count, c.dense_element_bytes, &c.dense_byte_size)) c.dense_byte_size = -1;

  // D1: physical position j holds logical dim minor_to_major[rank-1-j].
  c.logical_of_physical.reserve(c.rank);
  for (int64_t j = 0; j < c.rank; ++j) {
    c.logical_of_physical.push_back(shape.layout.minor_to_major[c.rank - 1 - j]);
  }

  // Walk the levels (D2-D4), building bounds, the level structure and the
  // index program together.
  std::vector<int64_t> bounds;
  std::vector<Expr> exprs;
  for (int64_t j = 0; j < c.rank; ++j) {
    bounds.push_back(shape.dims[c.logical_of_physical[j]]);
    exprs.push_back({{c.logical_of_physical[j], 1}});
  }
  c.program.input_count = c.rank;
  c.levels.reserve(shape.layout.tiles.size());
  for (const Tile& tile : shape.layout.tiles) {
    Level level = level_shape(tile, static_cast<int64_t>(bounds.size()));
    bounds.insert(bounds.begin(), level.extension, 1);
    exprs.insert(exprs.begin(), level.extension, Expr{});
    const size_t groups = level.groups.size();
    std::vector<int64_t> out_bounds, inner_bounds;
    out_bounds.reserve(level.prefix + 2 * groups);
    inner_bounds.reserve(groups);
    out_bounds.assign(bounds.begin(), bounds.begin() + level.prefix);
    // Moved, not copied: the groups below read exprs only past the prefix.
    std::vector<Expr> out_exprs, inner_exprs;
    out_exprs.reserve(level.prefix + 2 * groups);
    inner_exprs.reserve(groups);
    out_exprs.assign(std::make_move_iterator(exprs.begin()),
                     std::make_move_iterator(exprs.begin() + level.prefix));
    for (Group& g : level.groups) {
      Expr value;
      for (size_t m = 0; m < g.member_bounds.size(); ++m) {
        const int64_t b = bounds[g.first + m];
        g.member_bounds[m] = b;
        g.member_divs.emplace_back(std::max<int64_t>(b, 1));
        g.bound = checked_mul(g.bound, b, "combined dim");
        if (empty) continue;  // no index program for an empty array
        // value = value * b + member (mixed radix, D4)
        Expr scaled;
        add_scaled(scaled, value, b);
        add_scaled(scaled, exprs[g.first + m], 1);
        value = std::move(scaled);
      }
      out_bounds.push_back(ceil_div(g.bound, g.tile));
      inner_bounds.push_back(g.tile);
      // floor(g/t) and g mod t, folding the trivial cases.
      if (value.empty() || g.tile == 1) {
        out_exprs.push_back(std::move(value));
        inner_exprs.push_back({});
      } else if (g.bound <= g.tile) {
        out_exprs.push_back({});
        inner_exprs.push_back(std::move(value));
      } else {
        const int64_t reg = c.program.input_count + 2 * static_cast<int64_t>(c.program.steps.size());
        c.program.steps.push_back({std::move(value), g.tile});
        out_exprs.push_back({{reg, 1}});
        inner_exprs.push_back({{reg + 1, 1}});
      }
    }
    out_bounds.insert(out_bounds.end(), inner_bounds.begin(), inner_bounds.end());
    out_exprs.insert(out_exprs.end(), std::make_move_iterator(inner_exprs.begin()),
                     std::make_move_iterator(inner_exprs.end()));
    bounds = std::move(out_bounds);
    exprs = std::move(out_exprs);
    c.levels.push_back(std::move(level));
  }
  c.final_shape = bounds;
  c.final_count = 1;
  for (int64_t b : bounds) c.final_count = checked_mul(c.final_count, b, "padded element count");
  c.final_divs.reserve(bounds.size());
  for (int64_t b : bounds) c.final_divs.emplace_back(std::max<int64_t>(b, 1));
  c.padded_count = c.final_count;
  if (shape.layout.tail_padding_alignment) {
    const int64_t align = *shape.layout.tail_padding_alignment;
    c.padded_count = checked_mul(ceil_div(c.final_count, align), align, "padded element count");
  }
  // ceil(count*bits/8) without forming count*bits: count = 8q + r.
  const int64_t tail_bits = (c.padded_count % 8) * c.bits;
  c.byte_size = checked_add(checked_mul(c.padded_count / 8, c.bits, "byte size"),
                            tail_bits / 8 + (tail_bits % 8 != 0 ? 1 : 0), "byte size");

  if (empty) {
    // Every size is 0 (a zero dim gives a zero final dim, ceil(0/t) = 0):
    // linear_index and delinearize have no valid argument, and pack/unpack
    // move nothing. The program's result stays the empty sum; the loop nest
    // is one digit of extent 0.
    c.nest.lowered = true;
    c.nest.digits = {{0, 0, 1}};
    return c;
  }
  // linear_index = row-major over the final shape (D5). Non-empty, so every
  // stride is a suffix product of final_count, which fits.
  int64_t stride = 1;
  for (int64_t j = static_cast<int64_t>(bounds.size()) - 1; j >= 0; --j) {
    if (bounds[j] > 1) add_scaled(c.program.result, exprs[j], stride);
    if (j > 0) stride = checked_mul(stride, bounds[j], "final shape stride");
  }
  c.nest = lower_loop_nest(c, c.dense_strides);
  return c;
}

LoopNest lower_loop_nest(const CompiledLayout& c, const std::vector<int64_t>& dense_strides) {
  if (c.element_count == 0) return c.nest;
  return Lowering(c, dense_strides).run();
}

void check_buffer_size(const char* what, size_t got, int64_t want) {
  if (static_cast<int64_t>(got) != want) {
    throw Error(std::string(what) + " buffer has " + std::to_string(got) + " bytes, expected " +
                std::to_string(want));
  }
}

void check_disjoint(std::span<const uint8_t> a, std::span<const uint8_t> b) {
  if (a.empty() || b.empty()) return;
  const auto a0 = reinterpret_cast<uintptr_t>(a.data()), b0 = reinterpret_cast<uintptr_t>(b.data());
  if (a0 < b0 + b.size() && b0 < a0 + a.size()) throw Error("source and destination buffers overlap");
}

}  // namespace tilecheck::impl::detail
