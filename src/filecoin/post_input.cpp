#include "filecoin/post_input.hpp"

#include <fmt/format.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include "circuits/post_public_inputs.hpp"
#include "filecoin/post_bincode.hpp"
#include "filecoin/registered_seal_proof_t.hpp"
#include "porep/post_challenges.hpp"
#include "porep/post_shape.hpp"
#include "porep/post_vanilla.hpp"

namespace cuzk::filecoin {
namespace {

const char* kind_title(porep::post_kind_t k) {
  return k == porep::post_kind_t::winning ? "WinningPoSt" : "WindowPoSt";
}

const registered_post_proof_t& checked_proof(const post_request_t& r) {
  if (r.registered_proof >= registered_post_proofs().size())
    throw std::invalid_argument(fmt::format("registered_proof: {} is not a PoSt proof (0–14: 0–4 Winning V1, 5–9 "
                                            "Window V1, 10–14 Window V1_1)",
                                            r.registered_proof));
  const auto& p = post_proof_by_id(r.registered_proof);
  if (p.kind != r.kind)
    throw std::invalid_argument(fmt::format("registered_proof: {} ({}) is a {} proof, but the request asks for {}",
                                            p.id, p.ffi_name(), kind_title(p.kind), kind_title(r.kind)));
  return p;
}

porep::bytes32_t checked_randomness(std::span<const std::uint8_t> b) {
  porep::bytes32_t out{};
  if (b.size() != out.size())
    throw std::invalid_argument(fmt::format("randomness: {} bytes, expected 32", b.size()));
  std::copy(b.begin(), b.end(), out.begin());
  if (!porep::is_canonical_fr(out))
    throw std::invalid_argument("randomness: not a canonical field element (Curio sends it reduced: byte 31 & 0x3f)");
  return out;
}

}  // namespace

post_input_t read_post_request(const post_request_t& r) {
  post_input_t in;
  in.proof = &checked_proof(r);
  in.shape = in.proof->shape();
  in.randomness = checked_randomness(r.randomness);
  in.prover_id = prover_id_from_miner(r.miner_id);
  in.partition_index = r.partition_index;
  const unsigned capacity = in.shape.sectors_per_partition;
  if (r.kind == porep::post_kind_t::winning && r.partition_index != 0)
    throw std::invalid_argument(fmt::format("partition_index: {}, but WinningPoSt has one partition (0)",
                                            r.partition_index));
  if (r.vanilla_proofs.empty())
    throw std::invalid_argument(
        fmt::format("vanilla_proofs: empty ({} needs one bincode FallbackPoStSectorProof per challenged sector)",
                    kind_title(r.kind)));
  if (r.vanilla_proofs.size() > capacity)
    throw std::invalid_argument(fmt::format("vanilla_proofs: {} sectors, but a {} partition holds at most {}",
                                            r.vanilla_proofs.size(), in.proof->ffi_name(), capacity));
  in.real_sectors = r.vanilla_proofs.size();
  // Each sector read and checked on its own (a 32 GiB Window partition is
  // 2349 of them, ~235,000 Poseidon hashes); the first bad one by index is named.
  in.sectors.resize(r.vanilla_proofs.size());
  std::vector<std::string> errors(r.vanilla_proofs.size());
  tbb::parallel_for(std::size_t(0), r.vanilla_proofs.size(), [&](std::size_t i) {
    const std::string where = fmt::format("vanilla_proofs[{}]", i);
    try {
      in.sectors[i] = read_post_sector_bincode(r.vanilla_proofs[i], *in.proof);
    } catch (const std::invalid_argument& e) {
      // The sector id leads the blob (u64 LE): named when the blob holds it, for the operator to find the file.
      const auto& b = r.vanilla_proofs[i];
      std::uint64_t id = 0;
      for (std::size_t k = 0; k < 8 && k < b.size(); ++k) id |= std::uint64_t(b[k]) << (8 * k);
      const std::string sector = b.size() >= 8 ? fmt::format("sector {}; ", id) : std::string();
      errors[i] = fmt::format("{}: {} ({}a {} blob is {} bytes, this one {})", where, e.what(), sector,
                              in.proof->ffi_name(), post_sector_bincode_size(*in.proof), b.size());
      return;
    }
    const auto& s = in.sectors[i];
    const std::uint64_t sector_index = std::uint64_t(r.partition_index) * capacity + i;
    if (auto bad = porep::check_post_sector(in.shape, in.proof->api_version, in.randomness, sector_index, s, where))
      errors[i] = fmt::format("{}: {} (sector {})", bad->element, bad->reason, s.sector_id);
  });
  for (const std::string& e : errors)
    if (!e.empty()) throw std::invalid_argument(e);
  in.sectors = porep::pad_post_partition(std::move(in.sectors), capacity);
  const auto pub = circuits::post_public_sectors(in.sectors);
  in.public_inputs = circuits::post_public_inputs(in.shape, pub);
  return in;
}

}  // namespace cuzk::filecoin
