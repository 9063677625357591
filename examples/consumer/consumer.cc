// Uses the installed C++ libraries: parse a layout, build the impl's plans,
// index an element and pack a buffer. Exit 0 when the answers are the
// document's (Figure 1: element (2,3) -> 17).
#include <cstdint>
#include <iostream>
#include <vector>

#include <tilecheck/impl/plan.h>
#include <tilecheck/spec/syntax.h>

int main() {
  try {
    const tilecheck::ShapeWithLayout shape = tilecheck::parse_shape("f32[3,5]{1,0:T(2,2)}");
    const tilecheck::impl::PackPlan plan(shape);
    const std::vector<int64_t> element = {2, 3};
    const int64_t index = plan.index().linear_index_checked(element);
    std::vector<uint8_t> dense(plan.index().dense_byte_size(), 1);
    std::vector<uint8_t> physical(plan.index().byte_size());
    plan.pack(dense, physical);
    std::cout << tilecheck::print_shape(shape) << " element (2,3) -> " << index << ", "
              << physical.size() << " bytes\n";
    return index == 17 && physical.size() == 96 ? 0 : 1;
  } catch (const tilecheck::Error& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 1;
  }
}
