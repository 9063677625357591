// The second formulation of tiling in the document: pad, reshape, transpose.
//
// For one tile t = (t_n, ..., t_1) on bounds d = (d_n, ..., d_1):
//   1. pad the array to (ceil(d_n/t_n)*t_n, ..., ceil(d_1/t_1)*t_1);
//   2. reshape (a bitcast: same row-major order) to
//      (ceil(d_n/t_n), t_n, ..., ceil(d_1/t_1), t_1);
//   3. transpose the t_i to the most minor dims, keeping their order:
//      (ceil(d_n/t_n), ..., ceil(d_1/t_1), t_n, ..., t_1).
// Combined dims (D4) are one more reshape before the pad: merging adjacent
// dims of a row-major array is a bitcast. A tile longer than the shape (D3) is
// a reshape that adds leading dims of size 1.
//
// It is written independently of tilecheck/spec/semantics.h: every reshape moves an
// index through the row-major position it names (linearize, then
// delinearize into the new bounds) instead of using floor/mod per dim, so the
// two formulations agree only if the document's formula is right.
#pragma once

#include <cstdint>
#include <vector>

#include <tilecheck/spec/model.h>

namespace tilecheck::spec {

// The linear index of `element` by pad-reshape-transpose. Throws Error as
// spec::linear_index does.
int64_t linear_index_by_reshape(const ShapeWithLayout& shape, const std::vector<int64_t>& element);

// The final shape by the same steps.
std::vector<int64_t> tiled_shape_by_reshape(const ShapeWithLayout& shape);

}  // namespace tilecheck::spec
