#include "filecoin/snap_input.hpp"

#include <fmt/format.h>
#include <tbb/parallel_for.h>

#include <stdexcept>
#include <string>

#include "filecoin/snap_bincode.hpp"
#include "porep/post_challenges.hpp"
#include "porep/snap_vanilla.hpp"

namespace cuzk::filecoin {
namespace {

ff::fr_t checked_comm(std::span<const std::uint8_t> b, const char* field) {
  porep::bytes32_t raw{};
  if (b.size() != raw.size())
    throw std::invalid_argument(fmt::format("{}: {} bytes, expected the raw 32-byte commitment (not a CID)", field,
                                            b.size()));
  std::copy(b.begin(), b.end(), raw.begin());
  const auto x = ff::fr_t::from_bytes_le(raw);
  if (!x) throw std::invalid_argument(fmt::format("{}: not a canonical field element", field));
  return *x;
}

}  // namespace

snap_input_t read_snap_request(const snap_request_t& r) {
  snap_input_t in;
  if (r.registered_proof >= registered_update_proofs().size())
    throw std::invalid_argument(fmt::format("registered_proof: {} is not a SnapDeals update proof (0–4: "
                                            "StackedDrg2KiBV1 … StackedDrg64GiBV1)",
                                            r.registered_proof));
  in.proof = &update_proof_by_id(r.registered_proof);
  if (r.sector_size && r.sector_size != in.proof->sector_bytes)
    throw std::invalid_argument(fmt::format("sector_size: the request says {} bytes, but registered_proof {} ({}) is "
                                            "for {}-byte sectors",
                                            r.sector_size, in.proof->id, in.proof->name(), in.proof->sector_bytes));
  in.shape = in.proof->shape();
  const ff::fr_t comm_r_old = checked_comm(r.comm_r_old, "comm_r_old");
  const ff::fr_t comm_r_new = checked_comm(r.comm_r_new, "comm_r_new");
  const ff::fr_t comm_d_new = checked_comm(r.comm_d_new, "comm_d_new");
  if (r.vanilla_proofs.size() != in.shape.partitions)
    throw std::invalid_argument(fmt::format("vanilla_proofs: {} partition proofs, {} takes {} (one bincode "
                                            "PartitionProof per partition)",
                                            r.vanilla_proofs.size(), in.proof->name(), in.shape.partitions));
  in.partitions.resize(in.shape.partitions);
  std::vector<std::string> errors(in.shape.partitions);
  tbb::parallel_for(0u, in.shape.partitions, [&](unsigned k) {
    const std::string where = fmt::format("vanilla_proofs[{}]", k);
    auto& p = in.partitions[k];
    p.pub = {k, comm_r_old, comm_d_new, comm_r_new, in.shape.h_default()};
    try {
      p.proof = read_snap_partition_bincode(r.vanilla_proofs[k], in.shape);
    } catch (const std::invalid_argument& e) {
      errors[k] = fmt::format("{}: {} (partition {}; a {} blob is {} bytes, this one {})", where, e.what(), k,
                              in.proof->name(), snap_partition_bincode_size(in.shape), r.vanilla_proofs[k].size());
      return;
    }
    if (auto bad = porep::check_snap_partition(in.shape, p.pub, p.proof))
      errors[k] = fmt::format("{}: {}: {} (partition {})", where, bad->element, bad->reason, k);
  });
  for (const std::string& e : errors)
    if (!e.empty()) throw std::invalid_argument(e);
  return in;
}

}  // namespace cuzk::filecoin
