#pragma once
// Which (base, scalar) pairs an MSM kernel visits: all of them in order, or a
// sorted list of positions (the scalars left after 0 and 1 are split off). The
// branch is perfectly predicted, so one type serves both without a template fork.
#include <cstddef>
#include <cstdint>
#include <span>

namespace cuzk::msm {

struct point_index_t {
  const uint32_t* list = nullptr;  // null: position i is pair i
  size_t count = 0;

  static point_index_t all(size_t n) { return {nullptr, n}; }
  static point_index_t of(std::span<const uint32_t> l) { return {l.data(), l.size()}; }

  size_t operator[](size_t i) const { return list ? list[i] : i; }
  size_t size() const { return count; }
};

}  // namespace cuzk::msm
