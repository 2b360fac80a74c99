#include "filecoin/c1_json.hpp"

#include <fmt/format.h>

#include <map>
#include <optional>
#include <regex>

#include "filecoin/c1_assembly.hpp"
#include "filecoin/json_stream_t.hpp"
#include "porep/domain.hpp"
#include "porep/merkle.hpp"
#include "porep/vanilla_checker.hpp"

namespace cuzk::filecoin {

using nlohmann::json;
using porep::bytes32_t;
using porep::vanilla_format_error;
using detail::redundant_t;

namespace {

std::string idx(const std::string& base, std::size_t i) { return base + "[" + std::to_string(i) + "]"; }

// ---- reading values ----

const json& member(const json& obj, const std::string& where, const char* key) {
  if (!obj.is_object()) throw vanilla_format_error(where, "expected a JSON object");
  auto it = obj.find(key);
  if (it == obj.end()) throw vanilla_format_error(where, std::string("missing \"") + key + "\"");
  return *it;
}

std::string shown(const json& v) {
  if (v.is_binary()) return "an array of " + std::to_string(v.get_binary().size()) + " small integers";
  std::string s = v.dump();
  return s.size() > 60 ? s.substr(0, 57) + "..." : s;
}

// A [u8; 32]: json_stream_t stores an array of <= 32 integers 0..255 as binary.
bytes32_t domain_bytes(const json& v, const std::string& where) {
  if (!v.is_binary() || v.get_binary().size() != 32)
    throw vanilla_format_error(where, "expected an array of 32 integers 0..255, got " + shown(v));
  bytes32_t b;
  std::copy(v.get_binary().begin(), v.get_binary().end(), b.begin());
  return b;
}

ff::fr_t domain_fr(const json& v, const std::string& where) {
  auto b = domain_bytes(v, where);
  auto x = ff::fr_t::from_bytes_le(b);
  if (!x) throw vanilla_format_error(where, "32 bytes (little-endian) are not a field element: the value is >= r");
  return *x;
}

std::uint64_t u64_of(const json& v, const std::string& where) {
  if (v.is_number_unsigned()) return v.get<std::uint64_t>();
  throw vanilla_format_error(where, "expected a non-negative integer, got " + shown(v));
}

const json& array_of(const json& v, const std::string& where, std::size_t want) {
  if (!v.is_array()) throw vanilla_format_error(where, "expected an array, got " + shown(v));
  if (v.size() != want)
    throw vanilla_format_error(where,
                               "expected " + std::to_string(want) + " entries, got " + std::to_string(v.size()));
  return v;
}

// ---- Merkle proofs ----

// Which ProofData variant a tree shape serializes as.
const char* variant_for(const porep::sector_params_t& p) {
  return p.top_arity ? "Top" : p.sub_arity ? "Sub" : "Single";
}

struct opening_t {
  ff::fr_t root, leaf;
  porep::merkle_path_t path;
};

// InclusionPath {path: [PathElement {hashes, index}]} for `levels` levels of `arity`.
// Each index must be the slot `node` sits in at that level.
void read_inclusion_path(const json& v, const std::string& where, unsigned arity, std::size_t levels,
                         std::span<const unsigned> slots, porep::merkle_path_t& out) {
  const std::string pw = where + ".path";
  const json& path = array_of(member(v, where, "path"), pw, levels);
  for (std::size_t l = 0; l < levels; ++l) {
    const std::string ew = idx(pw, l);
    const json& hashes = array_of(member(path[l], ew, "hashes"), ew + ".hashes", arity - 1);
    std::vector<ff::fr_t> sib;
    sib.reserve(arity - 1);
    for (std::size_t h = 0; h < hashes.size(); ++h) sib.push_back(domain_fr(hashes[h], idx(ew + ".hashes", h)));
    const std::uint64_t index = u64_of(member(path[l], ew, "index"), ew + ".index");
    if (index != slots[l])
      throw vanilla_format_error(ew + ".index", "is " + std::to_string(index) + ", but the opened node sits in slot " +
                                                    std::to_string(slots[l]) + " of this level");
    out.siblings.push_back(std::move(sib));
  }
}

// MerkleProof {data: {Single|Sub|Top: {...}}} opening `node` in a tree of `p`'s
// Tree C/R shape (or, with tree_d, Tree D).
opening_t read_merkle_proof(const json& v, const std::string& where, const porep::sector_params_t& p,
                            std::uint64_t node, bool tree_d) {
  const json& data = member(v, where, "data");
  const std::string dw = where + ".data";
  const char* want = tree_d ? "Single" : variant_for(p);
  if (!data.is_object() || data.size() != 1)
    throw vanilla_format_error(dw, std::string("expected {\"") + want + "\": {...}}, got " + shown(data));
  const std::string got = data.begin().key();
  if (got != want)
    throw vanilla_format_error(dw, "is a \"" + got + "\" proof; a " + (tree_d ? "Tree D" : "Tree C/R") +
                                       " opening of this sector size is \"" + want + "\"");
  const json& body = data.begin().value();
  const std::string bw = dw + "." + got;
  const auto arities = tree_d ? p.tree_d_arities() : p.tree_cr_arities();
  const auto slots = porep::path_slots(arities, node);
  opening_t o;
  o.root = domain_fr(member(body, bw, "root"), bw + ".root");
  o.leaf = domain_fr(member(body, bw, "leaf"), bw + ".leaf");
  if (got == "Single") {
    read_inclusion_path(member(body, bw, "path"), bw + ".path", arities.at(0), arities.size(), slots, o.path);
    return o;
  }
  const std::size_t top = p.top_arity ? 1 : 0;
  const std::size_t base_levels = arities.size() - 1 - top;
  read_inclusion_path(member(body, bw, "base_proof"), bw + ".base_proof", p.base_arity, base_levels, slots, o.path);
  read_inclusion_path(member(body, bw, "sub_proof"), bw + ".sub_proof", p.sub_arity, 1,
                      std::span(slots).subspan(base_levels), o.path);
  if (top)
    read_inclusion_path(member(body, bw, "top_proof"), bw + ".top_proof", p.top_arity, 1,
                        std::span(slots).subspan(base_levels + 1), o.path);
  return o;
}

// ---- one challenge ----

const char* column_name(std::size_t c) { return c == 0 ? "c_x" : c <= porep::drg_degree ? "drg_parents" : "exp_parents"; }

std::string column_path(const std::string& cw, std::size_t c) {
  if (c == 0) return cw + ".replica_column_proofs.c_x";
  if (c <= porep::drg_degree) return idx(cw + ".replica_column_proofs.drg_parents", c - 1);
  return idx(cw + ".replica_column_proofs.exp_parents", c - 1 - porep::drg_degree);
}

porep::column_opening_t read_column(const json& v, const std::string& where, const porep::sector_params_t& p,
                                    ff::fr_t& root, ff::fr_t& leaf) {
  porep::column_opening_t c;
  const json& col = member(v, where, "column");
  const std::string colw = where + ".column";
  const std::uint64_t index = u64_of(member(col, colw, "index"), colw + ".index");
  if (index >= p.nodes)
    throw vanilla_format_error(colw + ".index", "node " + std::to_string(index) + " is outside the sector's " +
                                                    std::to_string(p.nodes) + " nodes");
  c.node = index;
  const json& rows = array_of(member(col, colw, "rows"), colw + ".rows", p.layers);
  for (std::size_t l = 0; l < rows.size(); ++l) c.rows.push_back(domain_fr(rows[l], idx(colw + ".rows", l)));
  if (auto h = col.find("_h"); h != col.end() && !h->is_null())
    throw vanilla_format_error(colw + "._h", "expected null (a PhantomData), got " + shown(*h));
  auto o = read_merkle_proof(member(v, where, "inclusion_proof"), where + ".inclusion_proof", p, c.node, false);
  c.tree_c = std::move(o.path);
  root = o.root;
  leaf = o.leaf;
  return c;
}

// Labeling proof of layer L (1-based) lists 37 parent labels: for L = 1 the 6
// DRG parents' layer-1 rows repeated (P x 6 + P[0]); for L >= 2 the DRG
// parents' layer-L rows then the expander parents' layer-(L-1) rows, repeated
// (P ‖ P ‖ P[0..9]) (storage-proofs-porep stacked/vanilla/proof.rs).
// Returns (column, row) of slot s: column 1..6 DRG, 7..14 expander.
std::pair<std::size_t, std::size_t> parent_slot_source(unsigned layer, std::size_t s) {
  if (layer == 1) return {1 + s % porep::drg_degree, 0};
  const std::size_t m = s % porep::total_parents;
  if (m < porep::drg_degree) return {1 + m, layer - 1};
  return {1 + m, layer - 2};
}

// Checks a labeling or encoding proof's node, layer and parents against the
// columns. A parent that differs from its row names whichever side is wrong:
// the row if the column's rows do not hash to its inclusion leaf, else the parent.
void check_labeling(const json& v, const std::string& where, unsigned layer, std::uint64_t node,
                    const std::vector<const porep::column_opening_t*>& cols, const redundant_t& red,
                    const std::string& cw) {
  const std::uint64_t li = u64_of(member(v, where, "layer_index"), where + ".layer_index");
  if (li != layer) throw vanilla_format_error(where + ".layer_index", "expected " + std::to_string(layer));
  const std::uint64_t n = u64_of(member(v, where, "node"), where + ".node");
  if (n != node)
    throw vanilla_format_error(where + ".node", "is " + std::to_string(n) + ", but this challenge is node " +
                                                    std::to_string(node) + " (labeling_proofs[0].node)");
  const json& parents = array_of(member(v, where, "parents"), where + ".parents", porep::label_parent_slots);
  for (std::size_t s = 0; s < parents.size(); ++s) {
    const std::string sw = idx(where + ".parents", s);
    const ff::fr_t got = domain_fr(parents[s], sw);
    const auto [c, row] = parent_slot_source(layer, s);
    if (got == cols[c]->rows[row]) continue;
    const bool rows_hash_to_leaf = porep::hash_column(cols[c]->rows) == red.column_leaves[c];
    if (rows_hash_to_leaf)
      throw vanilla_format_error(sw, fmt::format("is not row {} of {} (node {}), which the labeling of layer {} hashes",
                                                 row, column_path(cw, c).substr(cw.size() + 1), cols[c]->node, layer));
    throw vanilla_format_error(idx(column_path(cw, c) + ".column.rows", row),
                               fmt::format("differs from {} and the column's rows do not hash to its inclusion "
                                           "proof's leaf",
                                           sw.substr(cw.size() + 1)));
  }
}

porep::challenge_proof_t read_one_challenge(const json& v, const std::string& cw, const porep::sector_params_t& p,
                                            redundant_t& red) {
  if (!v.is_object()) throw vanilla_format_error(cw, "expected a challenge's Proof object, got " + shown(v));
  porep::challenge_proof_t ch;
  // The challenge is labeling_proofs[0].node (the circuit's challenge input).
  const json& labeling = array_of(member(v, cw, "labeling_proofs"), cw + ".labeling_proofs", p.layers);
  const std::string nw = cw + ".labeling_proofs[0].node";
  ch.node = u64_of(member(labeling[0], cw + ".labeling_proofs[0]", "node"), nw);
  if (ch.node == 0 || ch.node >= p.nodes)
    throw vanilla_format_error(nw, "challenge " + std::to_string(ch.node) + " is outside 1.." +
                                       std::to_string(p.nodes - 1));

  auto d = read_merkle_proof(member(v, cw, "comm_d_proofs"), cw + ".comm_d_proofs", p, ch.node, true);
  ch.data_leaf = d.leaf;
  ch.tree_d = std::move(d.path);
  red.comm_d_root = d.root;

  auto r = read_merkle_proof(member(v, cw, "comm_r_last_proof"), cw + ".comm_r_last_proof", p, ch.node, false);
  ch.replica_leaf = r.leaf;
  ch.tree_r = std::move(r.path);
  red.comm_r_last_root = r.root;

  const std::string rw = cw + ".replica_column_proofs";
  const json& rcp = member(v, cw, "replica_column_proofs");
  ch.column = read_column(member(rcp, rw, "c_x"), rw + ".c_x", p, red.column_roots[0], red.column_leaves[0]);
  if (ch.column.node != ch.node)
    throw vanilla_format_error(rw + ".c_x.column.index", "is " + std::to_string(ch.column.node) +
                                                             ", but the challenge is node " + std::to_string(ch.node));
  const json& drg = array_of(member(rcp, rw, "drg_parents"), rw + ".drg_parents", porep::drg_degree);
  for (std::size_t m = 0; m < porep::drg_degree; ++m)
    ch.drg_parents[m] = read_column(drg[m], idx(rw + ".drg_parents", m), p, red.column_roots[1 + m],
                                    red.column_leaves[1 + m]);
  const json& exp = array_of(member(rcp, rw, "exp_parents"), rw + ".exp_parents", porep::expansion_degree);
  for (std::size_t m = 0; m < porep::expansion_degree; ++m)
    ch.exp_parents[m] = read_column(exp[m], idx(rw + ".exp_parents", m), p,
                                    red.column_roots[1 + porep::drg_degree + m],
                                    red.column_leaves[1 + porep::drg_degree + m]);

  std::vector<const porep::column_opening_t*> cols{&ch.column};
  for (const auto& c : ch.drg_parents) cols.push_back(&c);
  for (const auto& c : ch.exp_parents) cols.push_back(&c);
  for (unsigned layer = 1; layer <= p.layers; ++layer)
    check_labeling(labeling[layer - 1], idx(cw + ".labeling_proofs", layer - 1), layer, ch.node, cols, red, cw);
  check_labeling(member(v, cw, "encoding_proof"), cw + ".encoding_proof", p.layers, ch.node, cols, red, cw);
  return ch;
}

// ---- whole-file checks ----

// The value most entries agree on (ties: the first), so that one corrupted
// root is named rather than every other one.
ff::fr_t consensus(const std::vector<ff::fr_t>& xs) {
  std::map<std::string, std::pair<std::size_t, std::size_t>> counts;  // hex -> (count, first index)
  for (std::size_t i = 0; i < xs.size(); ++i) {
    auto& e = counts.try_emplace(xs[i].to_hex(), 0, i).first->second;
    ++e.first;
  }
  std::size_t best = 0, best_count = 0;
  for (const auto& [hex, e] : counts)
    if (e.first > best_count || (e.first == best_count && e.second < best)) best = e.second, best_count = e.first;
  return xs.at(best);
}

bytes32_t bytes_of(const ff::fr_t& x) { return porep::to_le_bytes(x); }

}  // namespace

std::string c1_element_path(const std::string& model_path, const registered_seal_proof_t& proof) {
  static const std::regex challenge(R"(^partitions\[(\d+)\]\.challenges\[(\d+)\](.*)$)");
  static const std::regex partition(R"(^partitions\[(\d+)\](.*)$)");
  const std::string vp = "vanilla_proofs." + proof.vanilla_variant();
  std::smatch m;
  if (std::regex_match(model_path, m, challenge)) {
    const std::string head = vp + "[" + m[1].str() + "][" + m[2].str() + "]";
    const std::string rest = m[3].str();
    const std::string variant = variant_for(proof.sector_params());
    static const std::vector<std::pair<std::regex, std::string>> table = {
        {std::regex(R"(^\.node$)"), ".labeling_proofs[0].node"},
        {std::regex(R"(^\.comm_d_proof\.leaf$)"), ".comm_d_proofs.data.Single.leaf"},
        {std::regex(R"(^\.comm_d_proof(\.path)?.*$)"), ".comm_d_proofs.data.Single.path"},
        {std::regex(R"(^\.comm_r_last_proof\.leaf$)"), ".comm_r_last_proof.data.@.leaf"},
        {std::regex(R"(^\.comm_r_last_proof.*$)"), ".comm_r_last_proof.data.@"},
        {std::regex(R"(^\.(drg_parents|exp_parents)\[(\d+)\]\.node$)"), ".replica_column_proofs.$1[$2].column.index"},
        {std::regex(R"(^\.(drg_parents|exp_parents)\[(\d+)\]\.column\[(\d+)\]$)"),
         ".replica_column_proofs.$1[$2].column.rows[$3]"},
        {std::regex(R"(^\.(drg_parents|exp_parents)\[(\d+)\]\.column$)"), ".replica_column_proofs.$1[$2].column.rows"},
        {std::regex(R"(^\.(drg_parents|exp_parents)\[(\d+)\](.*)$)"), ".replica_column_proofs.$1[$2]"},
        {std::regex(R"(^\.column\.node$)"), ".replica_column_proofs.c_x.column.index"},
        {std::regex(R"(^\.column\.column\[(\d+)\]$)"), ".replica_column_proofs.c_x.column.rows[$1]"},
        {std::regex(R"(^\.column\.column$)"), ".replica_column_proofs.c_x.column.rows"},
        {std::regex(R"(^\.column.*$)"), ".replica_column_proofs.c_x"},
    };
    for (const auto& [re, to] : table) {
      if (!std::regex_match(rest, re)) continue;
      std::string out = std::regex_replace(rest, re, to);
      if (auto at = out.find('@'); at != std::string::npos) out.replace(at, 1, variant);
      return head + out;
    }
    return head + rest;
  }
  if (std::regex_match(model_path, m, partition)) return vp + "[" + m[1].str() + "]" + m[2].str();
  if (model_path == "partitions") return vp;
  if (model_path == "comm_c") return vp + "[0][0].replica_column_proofs.c_x.inclusion_proof (its root, comm_c)";
  if (model_path == "comm_r_last") return vp + "[0][0].comm_r_last_proof (its root, comm_r_last)";
  return model_path;
}

namespace detail {

c1_output_t finish_c1(c1_output_t out, std::vector<std::vector<porep::challenge_proof_t>>& parts,
                      const std::vector<std::vector<redundant_t>>& reds, const json& root, const std::string& vw) {
  const auto& p = out.vanilla.params;
  const ff::fr_t comm_r = domain_fr(member(root, "C1 output", "comm_r"), "comm_r");
  const ff::fr_t comm_d = domain_fr(member(root, "C1 output", "comm_d"), "comm_d");
  out.vanilla.replica_id = domain_fr(member(root, "C1 output", "replica_id"), "replica_id");
  out.vanilla.seed = domain_bytes(member(root, "C1 output", "seed"), "seed");
  out.ticket = domain_bytes(member(root, "C1 output", "ticket"), "ticket");
  out.vanilla.model = "replicated";
  out.vanilla.comm_r = comm_r;
  out.vanilla.comm_d = comm_d;

  // Roots: every Tree D root is comm_d; Tree C and Tree R roots are shared.
  std::vector<ff::fr_t> c_roots, r_roots;
  for (const auto& part : reds)
    for (const auto& red : part) {
      r_roots.push_back(red.comm_r_last_root);
      for (const auto& x : red.column_roots) c_roots.push_back(x);
    }
  out.vanilla.comm_c = consensus(c_roots);
  out.vanilla.comm_r_last = consensus(r_roots);
  for (std::size_t k = 0; k < reds.size(); ++k)
    for (std::size_t i = 0; i < reds[k].size(); ++i) {
      const std::string cw = vw + "[" + std::to_string(k) + "][" + std::to_string(i) + "]";
      const auto& red = reds[k][i];
      if (red.comm_d_root != comm_d)
        throw vanilla_format_error(cw + ".comm_d_proofs.data.Single.root", "is not comm_d");
      if (red.comm_r_last_root != out.vanilla.comm_r_last)
        throw vanilla_format_error(cw + ".comm_r_last_proof.data." + variant_for(p) + ".root",
                                   "differs from the comm_r_last root of the other openings");
      for (std::size_t c = 0; c < red.column_roots.size(); ++c)
        if (red.column_roots[c] != out.vanilla.comm_c)
          throw vanilla_format_error(column_path(cw, c) + ".inclusion_proof.data." + variant_for(p) + ".root",
                                     std::string("differs from the comm_c root of the other column openings (") +
                                         column_name(c) + ")");
    }

  for (std::size_t k = 0; k < parts.size(); ++k) {
    porep::partition_proof_t part;
    part.index = unsigned(k);
    part.challenges = std::move(parts[k]);
    out.vanilla.partitions.push_back(std::move(part));
  }
  if (auto bad = porep::check_vanilla(out.vanilla))
    throw vanilla_format_error(c1_element_path(bad->element, out.proof), bad->reason);

  for (std::size_t k = 0; k < reds.size(); ++k)
    for (std::size_t i = 0; i < reds[k].size(); ++i) {
      const auto& ch = out.vanilla.partitions[k].challenges[i];
      std::vector<const porep::column_opening_t*> cols{&ch.column};
      for (const auto& c : ch.drg_parents) cols.push_back(&c);
      for (const auto& c : ch.exp_parents) cols.push_back(&c);
      const std::string cw = vw + "[" + std::to_string(k) + "][" + std::to_string(i) + "]";
      for (std::size_t c = 0; c < cols.size(); ++c)
        if (porep::hash_column(cols[c]->rows) != reds[k][i].column_leaves[c])
          throw vanilla_format_error(column_path(cw, c) + ".inclusion_proof.data." + variant_for(p) + ".leaf",
                                     "is not Poseidon of the column's rows");
    }
  return out;
}

porep::challenge_proof_t read_challenge(const json& v, const std::string& cw, const porep::sector_params_t& p,
                                        redundant_t& red) {
  return read_one_challenge(v, cw, p, red);
}

}  // namespace detail

c1_output_t read_c1_json(std::span<const std::uint8_t> text) {
  // Challenges arrive before the top-level commitments (serde writes
  // vanilla_proofs second), so they are read with the variant's sector size
  // and their roots checked once the file is done.
  std::optional<registered_seal_proof_t> variant_proof;  // V1 of the variant's size: the shape
  porep::sector_params_t shape;
  std::vector<std::vector<porep::challenge_proof_t>> parts;
  std::vector<std::vector<detail::redundant_t>> reds;
  std::string variant_name;

  json_stream_t stream("vanilla_proofs", [&](const std::string& variant, std::size_t k, std::size_t i, json&& ch) {
    if (!variant_proof) {
      variant_name = variant;
      for (const auto& rp : registered_seal_proofs())
        if (rp.version == seal_version_t::v1 && rp.vanilla_variant() == variant) variant_proof = rp;
      if (!variant_proof)
        throw vanilla_format_error("vanilla_proofs." + variant,
                                   "expected a StackedDrg<size>V1 variant (2KiB, 8MiB, 512MiB, 32GiB, 64GiB)");
      shape = porep::sector_params_for(variant_proof->sector_bytes, porep::api_version_t::v1_0);
    } else if (variant != variant_name) {
      throw vanilla_format_error("vanilla_proofs." + variant, "a second variant (after " + variant_name + ")");
    }
    const std::string cw = "vanilla_proofs." + variant_name + "[" + std::to_string(k) + "][" + std::to_string(i) + "]";
    if (k >= shape.partitions)
      throw vanilla_format_error(idx("vanilla_proofs." + variant_name, k),
                                 "a " + sector_size_name(shape.sector_bytes) + " sector has " +
                                     std::to_string(shape.partitions) + " partitions");
    if (i >= shape.challenges_per_partition)
      throw vanilla_format_error(cw, "a " + sector_size_name(shape.sector_bytes) + " partition has " +
                                         std::to_string(shape.challenges_per_partition) + " challenges");
    if (parts.size() <= k) parts.resize(k + 1), reds.resize(k + 1);
    detail::redundant_t red;
    parts[k].push_back(read_one_challenge(ch, cw, shape, red));
    reds[k].push_back(red);
  });
  json root;
  try {
    root = stream.parse(text);
  } catch (const vanilla_format_error&) {
    throw;
  } catch (const std::invalid_argument& e) {
    throw vanilla_format_error("C1 output", e.what());
  }
  if (!root.is_object()) throw vanilla_format_error("C1 output", "expected a JSON object (SealCommitPhase1Output)");

  // registered_proof: a unit variant, i.e. a string.
  const json& rp = member(root, "C1 output", "registered_proof");
  if (!rp.is_string()) throw vanilla_format_error("registered_proof", "expected a string, got " + shown(rp));
  c1_output_t out;
  try {
    out.proof = seal_proof_by_name(rp.get<std::string>());
  } catch (const std::invalid_argument& e) {
    throw vanilla_format_error("registered_proof", e.what());
  }
  const json& vp = member(root, "C1 output", "vanilla_proofs");
  if (!vp.is_object() || vp.size() != 1)
    throw vanilla_format_error("vanilla_proofs", "expected {\"" + out.proof.vanilla_variant() + "\": [...]}");
  if (vp.begin().key() != out.proof.vanilla_variant())
    throw vanilla_format_error("vanilla_proofs." + vp.begin().key(),
                               "registered_proof is " + out.proof.name() + ", whose vanilla proofs are \"" +
                                   out.proof.vanilla_variant() + "\"");
  try {
    out.vanilla.params = out.proof.sector_params();
  } catch (const std::invalid_argument& e) {
    throw vanilla_format_error("registered_proof", e.what());
  }
  const auto& p = out.vanilla.params;
  variant_name = out.proof.vanilla_variant();
  const std::string vw = "vanilla_proofs." + variant_name;
  // The streamed partitions are left as empty arrays; anything else was not a challenge object.
  const json& outer = vp.begin().value();
  if (!outer.is_array()) throw vanilla_format_error(vw, "expected an array of partitions, got " + shown(outer));
  if (outer.size() != p.partitions)
    throw vanilla_format_error(vw, "expected " + std::to_string(p.partitions) + " partitions, got " +
                                       std::to_string(outer.size()));
  for (std::size_t k = 0; k < outer.size(); ++k) {
    if (!outer[k].is_array() || !outer[k].empty())
      throw vanilla_format_error(idx(vw, k), "expected an array of challenge Proof objects, got " + shown(outer[k]));
    const std::size_t n = k < parts.size() ? parts[k].size() : 0;
    if (n != p.challenges_per_partition)
      throw vanilla_format_error(idx(vw, k), "expected " + std::to_string(p.challenges_per_partition) +
                                                 " challenges, got " + std::to_string(n));
  }

  return detail::finish_c1(std::move(out), parts, reds, root, vw);
}

// ---- writing ----

namespace {

class writer_t {
 public:
  explicit writer_t(const porep::sector_params_t& p) : p_(p) {}
  std::string out;

  void domain(const bytes32_t& b) {
    out += '[';
    for (std::size_t i = 0; i < 32; ++i) {
      if (i) out += ',';
      fmt::format_to(std::back_inserter(out), "{}", b[i]);
    }
    out += ']';
  }
  void domain(const ff::fr_t& x) { domain(bytes_of(x)); }
  void key(const char* k) {
    out += '"';
    out += k;
    out += "\":";
  }
  void u64(std::uint64_t v) { fmt::format_to(std::back_inserter(out), "{}", v); }

  void inclusion_path(const porep::merkle_path_t& path, std::span<const unsigned> slots, std::size_t from,
                      std::size_t n) {
    out += "{\"path\":[";
    for (std::size_t l = from; l < from + n; ++l) {
      if (l > from) out += ',';
      out += "{\"hashes\":[";
      for (std::size_t h = 0; h < path.siblings[l].size(); ++h) {
        if (h) out += ',';
        domain(path.siblings[l][h]);
      }
      out += "],\"index\":";
      u64(slots[l]);
      out += '}';
    }
    out += "]}";
  }

  void merkle_proof(const porep::merkle_path_t& path, std::uint64_t node, const ff::fr_t& root, const ff::fr_t& leaf,
                    bool tree_d) {
    const auto arities = tree_d ? p_.tree_d_arities() : p_.tree_cr_arities();
    const auto slots = porep::path_slots(arities, node);
    const std::string v = tree_d ? "Single" : variant_for(p_);
    out += "{\"data\":{\"" + v + "\":{";
    if (v == "Single") {
      key("root"), domain(root), out += ',';
      key("leaf"), domain(leaf), out += ',';
      key("path"), inclusion_path(path, slots, 0, arities.size());
    } else {
      const std::size_t top = p_.top_arity ? 1 : 0;
      const std::size_t base = arities.size() - 1 - top;
      key("base_proof"), inclusion_path(path, slots, 0, base), out += ',';
      key("sub_proof"), inclusion_path(path, slots, base, 1), out += ',';
      if (top) key("top_proof"), inclusion_path(path, slots, base + 1, 1), out += ',';
      key("root"), domain(root), out += ',';
      key("leaf"), domain(leaf);
    }
    out += "}}}";
  }

  void column(const porep::column_opening_t& c, const ff::fr_t& comm_c) {
    out += "{\"column\":{\"index\":";
    u64(c.node);
    out += ",\"rows\":[";
    for (std::size_t l = 0; l < c.rows.size(); ++l) {
      if (l) out += ',';
      domain(c.rows[l]);
    }
    out += "],\"_h\":null},\"inclusion_proof\":";
    merkle_proof(c.tree_c, c.node, comm_c, porep::hash_column(c.rows), false);
    out += '}';
  }

  void labeling(const porep::challenge_proof_t& ch, unsigned layer) {
    std::vector<const porep::column_opening_t*> cols{&ch.column};
    for (const auto& c : ch.drg_parents) cols.push_back(&c);
    for (const auto& c : ch.exp_parents) cols.push_back(&c);
    out += "{\"parents\":[";
    for (std::size_t s = 0; s < porep::label_parent_slots; ++s) {
      if (s) out += ',';
      const auto [c, row] = parent_slot_source(layer, s);
      domain(cols[c]->rows[row]);
    }
    out += "],\"layer_index\":";
    u64(layer);
    out += ",\"node\":";
    u64(ch.node);
    out += '}';
  }

  void challenge(const porep::vanilla_proof_t& v, const porep::challenge_proof_t& ch) {
    out += "{\"comm_d_proofs\":";
    merkle_proof(ch.tree_d, ch.node, v.comm_d, ch.data_leaf, true);
    out += ",\"comm_r_last_proof\":";
    merkle_proof(ch.tree_r, ch.node, v.comm_r_last, ch.replica_leaf, false);
    out += ",\"replica_column_proofs\":{\"c_x\":";
    column(ch.column, v.comm_c);
    out += ",\"drg_parents\":[";
    for (std::size_t m = 0; m < ch.drg_parents.size(); ++m) {
      if (m) out += ',';
      column(ch.drg_parents[m], v.comm_c);
    }
    out += "],\"exp_parents\":[";
    for (std::size_t m = 0; m < ch.exp_parents.size(); ++m) {
      if (m) out += ',';
      column(ch.exp_parents[m], v.comm_c);
    }
    out += "]},\"labeling_proofs\":[";
    for (unsigned layer = 1; layer <= p_.layers; ++layer) {
      if (layer > 1) out += ',';
      labeling(ch, layer);
    }
    out += "],\"encoding_proof\":";
    labeling(ch, p_.layers);
    out += '}';
  }

 private:
  const porep::sector_params_t& p_;
};

}  // namespace

std::string write_c1_json(const c1_output_t& c1) {
  const auto& v = c1.vanilla;
  writer_t w(v.params);
  // ~290 KB of text per 32 GiB challenge.
  w.out.reserve(std::size_t(v.params.total_challenges()) * (v.params.layers > 2 ? 290'000 : 24'000) + 1024);
  w.out += "{\"registered_proof\":\"" + c1.proof.name() + "\",\"vanilla_proofs\":{\"" +
           c1.proof.vanilla_variant() + "\":[";
  for (std::size_t k = 0; k < v.partitions.size(); ++k) {
    if (k) w.out += ',';
    w.out += '[';
    for (std::size_t i = 0; i < v.partitions[k].challenges.size(); ++i) {
      if (i) w.out += ',';
      w.challenge(v, v.partitions[k].challenges[i]);
    }
    w.out += ']';
  }
  w.out += "]},";
  w.key("comm_r"), w.domain(v.comm_r), w.out += ',';
  w.key("comm_d"), w.domain(v.comm_d), w.out += ',';
  w.key("replica_id"), w.domain(v.replica_id), w.out += ',';
  w.key("seed"), w.domain(v.seed), w.out += ',';
  w.key("ticket"), w.domain(c1.ticket);
  w.out += '}';
  return std::move(w.out);
}

c1_output_t make_c1_output(const registered_seal_proof_t& proof, porep::vanilla_proof_t vanilla,
                           std::optional<bytes32_t> ticket) {
  const auto p = proof.sector_params();
  if (p.sector_bytes != vanilla.params.sector_bytes || p.porep_id() != vanilla.params.porep_id() ||
      p.feature != vanilla.params.feature)
    throw std::invalid_argument("make_c1_output: the vanilla proof is for another sector size or version than " +
                                proof.name());
  if (vanilla.replica_id_inputs) {
    if (ticket && *ticket != vanilla.replica_id_inputs->ticket)
      throw std::invalid_argument("make_c1_output: the ticket is not the one replica_id was derived with");
    ticket = vanilla.replica_id_inputs->ticket;
  }
  return {proof, std::move(vanilla), ticket.value_or(bytes32_t{})};
}

}  // namespace cuzk::filecoin
