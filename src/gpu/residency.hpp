#pragma once
// Where a GPU base set (a Groth16 query) lives between proofs, and the plan
// that chooses it from the memory each tier has. Plain C++ (no CUDA): the
// engine and CI tests use it without a GPU.
//
//   device    uploaded once, read from device memory by every MSM (fastest:
//             no PCIe per proof);
//   pinned    the caller's host points, page-locked in place
//             (cudaHostRegister, no copy); each MSM streams them to the GPU
//             in chunks by DMA, overlapped with the previous chunk's MSM;
//   pageable  the caller's host points as they are (the kernel may page them
//             out); each MSM streams them through the pinned staging buffers.
// Every tier gives the same result bit for bit; they differ in PCIe traffic
// per proof (none for device, the set's bytes for the others) and in what
// they hold (device memory, locked host pages, nothing).
#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace cuzk::gpu {

enum class residency_t : uint8_t { device, pinned, pageable };

// The policy's spellings (config key gpus.param_residency, cuzk bench --residency).
inline constexpr std::array<std::string_view, 4> residency_modes = {"auto", "device", "pinned", "pageable"};

std::string_view residency_name(residency_t t);
// "device", "pinned" or "pageable"; nullopt for anything else.
std::optional<residency_t> parse_residency(std::string_view s);

// How the tiers are chosen: "auto" fills device memory first and pins the
// rest; a fixed tier puts every set there (device: fails when they do not fit).
struct residency_policy_t {
  std::optional<residency_t> forced;  // nullopt = auto
  // Device bytes kept free for the proofs' working memory (NTT vectors,
  // scalars, MSM scratch); 0 = estimate it (gpu_prover_t does).
  uint64_t device_reserve = 0;

  // "auto", or a tier's name; std::invalid_argument otherwise.
  static residency_policy_t parse(std::string_view mode, uint64_t device_reserve = 0);
  std::string mode() const;
};

struct residency_plan_t {
  std::vector<residency_t> tiers;  // one per set, in the order given
  uint64_t device_bytes = 0;       // bytes of the sets placed on the device
  uint64_t streamed_bytes = 0;     // bytes each proof sends over PCIe for the others
  uint64_t device_need = 0;        // device memory the placement takes (sets and windows)
  uint64_t room = 0;               // device_free - reserve
  bool fits = true;                // device_need <= room (auto only may be false)

  std::string describe(std::span<const std::string_view> names) const;
};

// One base set: its bytes, and the device memory it needs when streamed
// (its two windows).
struct residency_set_t {
  uint64_t bytes = 0;
  uint64_t window_bytes = 0;
};

// Places the sets in room = device_free - reserve. Auto: every set starts
// streamed (pinned), then the largest sets move to the device while the
// room holds them (moving one costs its bytes less its windows); when even
// the windows do not fit, every set stays pinned and fits is false (the
// caller may try smaller windows). A forced tier puts every set there; a
// forced device tier that does not fit throws std::runtime_error naming the
// bytes needed and the room.
residency_plan_t plan_residency(std::span<const residency_set_t> sets, uint64_t device_free, uint64_t reserve,
                                const residency_policy_t& policy);

// One parameter set's claim on a device shared with other sets (PoRep beside
// WindowPoSt and WinningPoSt). Each set's prover places its queries when it
// is built, in the memory free then; a set that is announced (a preload) but
// not built yet holds none, so without claims whichever set loads first takes
// the device and a WindowPoSt loaded after a PoRep streams 40 GiB per proof.
struct residency_claim_t {
  std::string id;      // the circuit id
  uint32_t rank = 0;   // its priority: higher ranks are placed first
  uint64_t bytes = 0;  // its points, every query
  bool built = false;  // its prover exists: its resident bytes are no longer free
};

// Device bytes the set `id` leaves free, of `room`, for the sets ranked above
// it that are not built yet: each one's bytes, highest rank first, while the
// room lasts (a set larger than what is left gets what is left, the rest of
// it would stream anyway). Built sets hold their bytes already (they are not
// in the free memory the room came from), and sets of the same or lower
// rank wait their turn: a PoRep set leaves a WindowPoSt set its room, never
// the other way round. 0 when `id` has no claim.
uint64_t held_for_higher_ranks(std::span<const residency_claim_t> claims, std::string_view id, uint64_t room);

}  // namespace cuzk::gpu
