#include "filecoin/c1_bincode.hpp"

#include <fmt/format.h>

#include "filecoin/bincode_reader_t.hpp"
#include "filecoin/bincode_writer_t.hpp"
#include "filecoin/c1_assembly.hpp"
#include "porep/domain.hpp"
#include "porep/merkle.hpp"

namespace cuzk::filecoin {

using nlohmann::json;
using porep::vanilla_format_error;

namespace {

// Like the JSON reader's cap: no array of a C1 holds more than a few dozen
// entries, so a larger length is corruption, refused before it allocates.
constexpr std::uint64_t max_len = std::uint64_t(1) << 16;

// The bincode primitives plus [u8; 32] values as the JSON reader's DOM
// (32-byte binaries), so one set of value checks serves both formats.
class bin_reader_t : public bincode_reader_t {
 public:
  using bincode_reader_t::bincode_reader_t;
  json domain(const std::string& where) {
    const auto b = bytes32(where);
    return json::binary(std::vector<std::uint8_t>(b.begin(), b.end()));
  }
  std::uint64_t len(const std::string& where) { return bincode_reader_t::len(where, max_len); }
};

std::string idx(const std::string& base, std::size_t i) { return base + "[" + std::to_string(i) + "]"; }

// ---- bincode -> the JSON reader's DOM ----

json domains(bin_reader_t& r, const std::string& where) {
  json a = json::array();
  const auto n = r.len(where);
  for (std::uint64_t i = 0; i < n; ++i) a.push_back(r.domain(idx(where, i)));
  return a;
}

json inclusion_path(bin_reader_t& r, const std::string& where) {
  json path = json::array();
  const std::string pw = where + ".path";
  const auto n = r.len(pw);
  for (std::uint64_t l = 0; l < n; ++l) {
    const std::string ew = idx(pw, l);
    json e = json::object();
    e["hashes"] = domains(r, ew + ".hashes");
    e["index"] = r.u64(ew + ".index");
    path.push_back(std::move(e));
  }
  return json{{"path", std::move(path)}};
}

json merkle_proof(bin_reader_t& r, const std::string& where) {
  const std::string dw = where + ".data";
  const auto tag = r.u32(dw);
  static constexpr const char* names[] = {"Single", "Sub", "Top"};
  if (tag > 2) throw vanilla_format_error(dw, fmt::format("ProofData tag {} at byte {} (0 Single, 1 Sub, 2 Top)", tag,
                                                          r.at() - 4));
  const std::string bw = dw + "." + names[tag];
  json body = json::object();
  if (tag == 0) {
    body["root"] = r.domain(bw + ".root");
    body["leaf"] = r.domain(bw + ".leaf");
    body["path"] = inclusion_path(r, bw + ".path");
  } else {
    body["base_proof"] = inclusion_path(r, bw + ".base_proof");
    body["sub_proof"] = inclusion_path(r, bw + ".sub_proof");
    if (tag == 2) body["top_proof"] = inclusion_path(r, bw + ".top_proof");
    body["root"] = r.domain(bw + ".root");
    body["leaf"] = r.domain(bw + ".leaf");
  }
  return json{{"data", json{{names[tag], std::move(body)}}}};
}

json column_proof(bin_reader_t& r, const std::string& where) {
  json col = json::object();
  col["index"] = r.u32(where + ".column.index");
  col["rows"] = domains(r, where + ".column.rows");
  col["_h"] = nullptr;
  json out = json::object();
  out["column"] = std::move(col);
  out["inclusion_proof"] = merkle_proof(r, where + ".inclusion_proof");
  return out;
}

json column_proofs(bin_reader_t& r, const std::string& where) {
  json a = json::array();
  const auto n = r.len(where);
  for (std::uint64_t i = 0; i < n; ++i) a.push_back(column_proof(r, idx(where, i)));
  return a;
}

json labeling(bin_reader_t& r, const std::string& where) {
  json l = json::object();
  l["parents"] = domains(r, where + ".parents");
  l["layer_index"] = r.u32(where + ".layer_index");
  l["node"] = r.u64(where + ".node");
  return l;
}

json challenge(bin_reader_t& r, const std::string& cw) {
  json c = json::object();
  c["comm_d_proofs"] = merkle_proof(r, cw + ".comm_d_proofs");
  c["comm_r_last_proof"] = merkle_proof(r, cw + ".comm_r_last_proof");
  json rcp = json::object();
  const std::string rw = cw + ".replica_column_proofs";
  rcp["c_x"] = column_proof(r, rw + ".c_x");
  rcp["drg_parents"] = column_proofs(r, rw + ".drg_parents");
  rcp["exp_parents"] = column_proofs(r, rw + ".exp_parents");
  c["replica_column_proofs"] = std::move(rcp);
  json labels = json::array();
  const auto n = r.len(cw + ".labeling_proofs");
  for (std::uint64_t l = 0; l < n; ++l) labels.push_back(labeling(r, idx(cw + ".labeling_proofs", l)));
  c["labeling_proofs"] = std::move(labels);
  c["encoding_proof"] = labeling(r, cw + ".encoding_proof");
  return c;
}

// ---- writing ----

class bin_writer_t : public bincode_writer_t {
 public:
  explicit bin_writer_t(const porep::sector_params_t& p) : p_(p) {}

  void merkle_proof(const porep::merkle_path_t& p, std::uint64_t node, const ff::fr_t& root, const ff::fr_t& leaf,
                    bool tree_d) {
    if (tree_d) bincode_writer_t::merkle_proof(merkle_proof_tag_t::single, p_.tree_d_arities(), p, node, root, leaf);
    else bincode_writer_t::merkle_proof(merkle_proof_tag(p_), p_.tree_cr_arities(), p, node, root, leaf);
  }
  void column(const porep::column_opening_t& c, const ff::fr_t& comm_c) {
    uint(c.node, 4);
    uint(c.rows.size(), 8);
    for (const auto& x : c.rows) domain(x);
    merkle_proof(c.tree_c, c.node, comm_c, porep::hash_column(c.rows), false);
  }
  void labeling(const porep::challenge_proof_t& ch, unsigned layer) {
    uint(porep::label_parent_slots, 8);
    for (std::size_t s = 0; s < porep::label_parent_slots; ++s) {
      // The same repetition as the JSON writer (labeling_proof.rs order).
      const std::size_t m = layer == 1 ? s % porep::drg_degree : s % porep::total_parents;
      const auto& col = m < porep::drg_degree ? ch.drg_parents[m] : ch.exp_parents[m - porep::drg_degree];
      domain(col.rows[m < porep::drg_degree ? layer - 1 : layer - 2]);
    }
    uint(layer, 4);
    uint(ch.node, 8);
  }
  void challenge(const porep::vanilla_proof_t& v, const porep::challenge_proof_t& ch) {
    merkle_proof(ch.tree_d, ch.node, v.comm_d, ch.data_leaf, true);
    merkle_proof(ch.tree_r, ch.node, v.comm_r_last, ch.replica_leaf, false);
    column(ch.column, v.comm_c);
    uint(ch.drg_parents.size(), 8);
    for (const auto& c : ch.drg_parents) column(c, v.comm_c);
    uint(ch.exp_parents.size(), 8);
    for (const auto& c : ch.exp_parents) column(c, v.comm_c);
    uint(p_.layers, 8);
    for (unsigned layer = 1; layer <= p_.layers; ++layer) labeling(ch, layer);
    labeling(ch, p_.layers);
  }

 private:
  const porep::sector_params_t& p_;
};

}  // namespace

c1_output_t read_c1_bincode(std::span<const std::uint8_t> bytes, const registered_seal_proof_t& proof) {
  c1_output_t out;
  out.proof = proof;
  try {
    out.vanilla.params = proof.sector_params();
  } catch (const std::invalid_argument& e) {
    throw vanilla_format_error("registered_proof", e.what());
  }
  const auto& p = out.vanilla.params;
  const std::string vw = "vanilla_proofs." + proof.vanilla_variant();
  bin_reader_t r(bytes);
  const auto parts_n = r.len(vw);
  if (parts_n != p.partitions)
    throw vanilla_format_error(vw, fmt::format("{} partitions, but a {} sector ({}) has {}", parts_n,
                                               sector_size_name(p.sector_bytes), proof.name(), p.partitions));
  std::vector<std::vector<porep::challenge_proof_t>> parts(parts_n);
  std::vector<std::vector<detail::redundant_t>> reds(parts_n);
  for (std::uint64_t k = 0; k < parts_n; ++k) {
    const auto n = r.len(idx(vw, k));
    if (n != p.challenges_per_partition)
      throw vanilla_format_error(idx(vw, k), fmt::format("{} challenges, but a {} partition has {}", n,
                                                         sector_size_name(p.sector_bytes), p.challenges_per_partition));
    for (std::uint64_t i = 0; i < n; ++i) {
      const std::string cw = idx(idx(vw, k), i);
      detail::redundant_t red;
      parts[k].push_back(detail::read_challenge(challenge(r, cw), cw, p, red));
      reds[k].push_back(red);
    }
  }
  json root = json::object();
  for (const char* k : {"comm_r", "comm_d", "replica_id", "seed", "ticket"}) root[k] = r.domain(k);
  if (r.left())
    throw vanilla_format_error("C1 output", fmt::format("{} bytes after the ticket (at byte {})", r.left(), r.at()));
  return detail::finish_c1(std::move(out), parts, reds, root, vw);
}

std::string write_c1_bincode(const c1_output_t& c1) {
  const auto& v = c1.vanilla;
  bin_writer_t w(v.params);
  w.uint(v.partitions.size(), 8);
  for (const auto& part : v.partitions) {
    w.uint(part.challenges.size(), 8);
    for (const auto& ch : part.challenges) w.challenge(v, ch);
  }
  w.domain(v.comm_r), w.domain(v.comm_d), w.domain(v.replica_id), w.domain(v.seed), w.domain(c1.ticket);
  return std::move(w.out);
}

}  // namespace cuzk::filecoin
