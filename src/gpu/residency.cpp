#include "gpu/residency.hpp"

#include <algorithm>
#include <numeric>
#include <stdexcept>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace cuzk::gpu {

std::string_view residency_name(residency_t t) {
  switch (t) {
    case residency_t::device:
      return "device";
    case residency_t::pinned:
      return "pinned";
    case residency_t::pageable:
      return "pageable";
  }
  return "?";
}

std::optional<residency_t> parse_residency(std::string_view s) {
  for (residency_t t : {residency_t::device, residency_t::pinned, residency_t::pageable}) {
    if (s == residency_name(t)) return t;
  }
  return std::nullopt;
}

residency_policy_t residency_policy_t::parse(std::string_view mode, uint64_t device_reserve) {
  residency_policy_t p;
  p.device_reserve = device_reserve;
  if (mode == "auto") return p;
  p.forced = parse_residency(mode);
  if (!p.forced) {
    throw std::invalid_argument(
        fmt::format("parameter residency \"{}\" unknown (expected {})", mode, fmt::join(residency_modes, ", ")));
  }
  return p;
}

std::string residency_policy_t::mode() const { return forced ? std::string(residency_name(*forced)) : "auto"; }

std::string residency_plan_t::describe(std::span<const std::string_view> names) const {
  std::string s;
  for (size_t i = 0; i < tiers.size(); ++i) {
    if (!s.empty()) s += ", ";
    s += fmt::format("{} {}", i < names.size() ? names[i] : std::string_view("set"), residency_name(tiers[i]));
  }
  return s;
}

namespace {

std::string gib(uint64_t bytes) { return fmt::format("{:.2f} GiB", double(bytes) / double(uint64_t(1) << 30)); }

uint64_t device_need(const residency_set_t& s, residency_t t) {
  return t == residency_t::device ? s.bytes : s.window_bytes;
}

}  // namespace

residency_plan_t plan_residency(std::span<const residency_set_t> sets, uint64_t device_free, uint64_t reserve,
                                const residency_policy_t& policy) {
  residency_plan_t plan;
  const uint64_t room = device_free > reserve ? device_free - reserve : 0;
  plan.tiers.assign(sets.size(), policy.forced.value_or(residency_t::pinned));
  uint64_t used = 0;
  for (size_t i = 0; i < sets.size(); ++i) used += device_need(sets[i], plan.tiers[i]);
  if (!policy.forced) {
    // Largest first: every byte not on the device crosses PCIe once per
    // proof, so the plan keeps as many bytes resident as whole sets allow.
    std::vector<size_t> order(sets.size());
    std::iota(order.begin(), order.end(), size_t(0));
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return sets[a].bytes > sets[b].bytes; });
    for (size_t i : order) {
      const uint64_t after = used - sets[i].window_bytes + sets[i].bytes;  // its bytes replace its windows
      if (after <= room) {
        plan.tiers[i] = residency_t::device;
        used = after;
      }
    }
  }
  plan.device_need = used;
  plan.room = room;
  plan.fits = used <= room;
  if (!plan.fits && policy.forced == residency_t::device) {
    throw std::runtime_error(fmt::format(
        "parameter residency \"device\": the bases need {} of GPU memory but {} are free after {} kept for the "
        "proofs' working memory (use auto, pinned or pageable)",
        gib(used), gib(room), gib(reserve)));
  }
  for (size_t i = 0; i < sets.size(); ++i) {
    (plan.tiers[i] == residency_t::device ? plan.device_bytes : plan.streamed_bytes) += sets[i].bytes;
  }
  return plan;
}

uint64_t held_for_higher_ranks(std::span<const residency_claim_t> claims, std::string_view id, uint64_t room) {
  const auto self = std::ranges::find(claims, id, &residency_claim_t::id);
  if (self == claims.end()) return 0;
  // Placed highest rank first, each as far as the room goes: together, their
  // bytes up to the room, whatever the order.
  uint64_t above = 0;
  for (const auto& c : claims) {
    if (c.rank > self->rank && !c.built) above += c.bytes;
  }
  return std::min(above, room);
}

}  // namespace cuzk::gpu
