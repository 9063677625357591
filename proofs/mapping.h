// A layout's index mapping, cut into the pieces the compositional proof of
// proofs/obligations.h reasons about, each available in two domains: Z3 terms
// (what is proved) and checked int64 (what a counterexample is replayed on).
//
// The spec's mapping (spec_mapping()) is made of the templates of
// tilecheck/spec/semantics.h themselves: tile_bounds, tile_index, untile_index,
// linear_index and row_major_coordinates. The whole-layout functions below
// (mapped_level_bounds, mapped_linear_index, mapped_delinearize,
// mapped_padded_count) compose the pieces exactly as the spec's
// level_bounds, linear_index_with_tile, delinearize and padded_element_count
// do; for the spec's mapping the prover checks that the two give the
// identical Z3 term (proofs/bijection.cc, "composition"), so a change to
// the spec's composition cannot slip past the proof. They exist separately
// so that tests can swap one piece for a deliberately wrong one (floor
// instead of ceil, ...) and check that the proofs refute it.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "proofs/z3_domain.h"
#include <tilecheck/spec/semantics.h>

namespace tilecheck::proofs {

template <class A>
using Vec = std::vector<typename A::Value>;

template <class A>
struct MappingOps {
  std::function<Vec<A>(A&, const spec::TileSizes<A>&, const Vec<A>&)> tile_bounds;
  // (tile, bounds before, index before) -> index after
  std::function<Vec<A>(A&, const spec::TileSizes<A>&, const Vec<A>&, const Vec<A>&)> tile_index;
  // (tile, bounds before, index after) -> index before, in bounds
  std::function<spec::Untiled<A>(A&, const spec::TileSizes<A>&, const Vec<A>&, const Vec<A>&)>
      untile_index;
  std::function<typename A::Value(A&, const Vec<A>&, const Vec<A>&)> linear_index;
  std::function<Vec<A>(A&, typename A::Value, const Vec<A>&)> row_major_coordinates;
};

struct Mapping {
  std::string name;
  bool is_spec = false;  // the spec's own pieces: the prover checks the composition
  MappingOps<Z3Domain> symbolic;
  MappingOps<spec::Int64Domain> concrete;
};

// The pieces of tilecheck/spec/semantics.h. A wrong mapping for a test derives from
// this and hides one member template.
struct SpecPieces {
  template <class A>
  static Vec<A> tile_bounds(A& a, const spec::TileSizes<A>& t, const Vec<A>& b) {
    return spec::tile_bounds(a, t, b);
  }
  template <class A>
  static Vec<A> tile_index(A& a, const spec::TileSizes<A>& t, const Vec<A>& b, const Vec<A>& e) {
    return spec::tile_index(a, t, b, e);
  }
  template <class A>
  static spec::Untiled<A> untile_index(A& a, const spec::TileSizes<A>& t, const Vec<A>& b,
                                       const Vec<A>& y) {
    return spec::untile_index(a, t, b, y);
  }
  template <class A>
  static typename A::Value linear_index(A& a, const Vec<A>& x, const Vec<A>& d) {
    return spec::linear_index(a, x, d);
  }
  template <class A>
  static Vec<A> row_major_coordinates(A& a, typename A::Value p, const Vec<A>& d) {
    return spec::row_major_coordinates(a, p, d);
  }
};

template <class Pieces, class A>
MappingOps<A> make_ops() {
  MappingOps<A> ops;
  ops.tile_bounds = [](A& a, const spec::TileSizes<A>& t, const Vec<A>& b) {
    return Pieces::template tile_bounds<A>(a, t, b);
  };
  ops.tile_index = [](A& a, const spec::TileSizes<A>& t, const Vec<A>& b, const Vec<A>& e) {
    return Pieces::template tile_index<A>(a, t, b, e);
  };
  ops.untile_index = [](A& a, const spec::TileSizes<A>& t, const Vec<A>& b, const Vec<A>& y) {
    return Pieces::template untile_index<A>(a, t, b, y);
  };
  ops.linear_index = [](A& a, const Vec<A>& x, const Vec<A>& d) {
    return Pieces::template linear_index<A>(a, x, d);
  };
  ops.row_major_coordinates = [](A& a, typename A::Value p, const Vec<A>& d) {
    return Pieces::template row_major_coordinates<A>(a, p, d);
  };
  return ops;
}

template <class Pieces>
Mapping make_mapping(std::string name, bool is_spec = false) {
  return {std::move(name), is_spec, make_ops<Pieces, Z3Domain>(),
          make_ops<Pieces, spec::Int64Domain>()};
}

inline Mapping spec_mapping() { return make_mapping<SpecPieces>("spec", true); }

// ---------------------------------------------------------------------------
// Whole layouts from the pieces (the spec's composition, D1, D2, D5).

template <class A>
std::vector<Vec<A>> mapped_level_bounds(A& a, const MappingOps<A>& ops, const Vec<A>& dims,
                                        const Layout& layout) {
  std::vector<Vec<A>> bounds = {spec::to_physical_order(dims, layout.minor_to_major)};
  for (const Tile& t : layout.tiles) {
    bounds.push_back(ops.tile_bounds(a, spec::tile_sizes(a, t), bounds.back()));
  }
  return bounds;
}

template <class A>
typename A::Value mapped_linear_index(A& a, const MappingOps<A>& ops, const Vec<A>& dims,
                                      const Layout& layout, const Vec<A>& element) {
  const auto bounds = mapped_level_bounds(a, ops, dims, layout);
  Vec<A> index = spec::to_physical_order(element, layout.minor_to_major);
  for (size_t k = 0; k < layout.tiles.size(); ++k) {
    index = ops.tile_index(a, spec::tile_sizes(a, layout.tiles[k]), bounds[k], index);
  }
  return ops.linear_index(a, index, bounds.back());
}

// Precondition as spec::delinearize: 0 <= position < product of the final shape.
template <class A>
spec::Untiled<A> mapped_delinearize(A& a, const MappingOps<A>& ops, const Vec<A>& dims,
                                    const Layout& layout, typename A::Value position) {
  const auto bounds = mapped_level_bounds(a, ops, dims, layout);
  spec::Untiled<A> u{ops.row_major_coordinates(a, position, bounds.back()), a.truth(true)};
  for (size_t k = layout.tiles.size(); k-- > 0;) {
    spec::Untiled<A> prev =
        ops.untile_index(a, spec::tile_sizes(a, layout.tiles[k]), bounds[k], u.index);
    u = {prev.index, a.both(u.in_bounds, prev.in_bounds)};
  }
  u.index = spec::to_logical_order(u.index, layout.minor_to_major);
  return u;
}

// Product of the final shape (positions at or past it are L(n) tail padding).
template <class A>
typename A::Value mapped_final_count(A& a, const MappingOps<A>& ops, const Vec<A>& dims,
                                     const Layout& layout) {
  return spec::product(a, mapped_level_bounds(a, ops, dims, layout).back());
}

// D5: `count` rounded up to a multiple of L(n), as spec::padded_element_count.
template <class A>
typename A::Value round_up_to_alignment(A& a, const typename A::Value& count,
                                        const Layout& layout) {
  if (!layout.tail_padding_alignment) return count;
  const typename A::Value align = a.constant(*layout.tail_padding_alignment);
  return a.mul(a.ceil_div(count, align), align);
}

template <class A>
typename A::Value mapped_padded_count(A& a, const MappingOps<A>& ops, const Vec<A>& dims,
                                      const Layout& layout) {
  return round_up_to_alignment(a, mapped_final_count(a, ops, dims, layout), layout);
}

}  // namespace tilecheck::proofs
