#include "porep/vanilla_json.hpp"

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

namespace cuzk::porep {

using nlohmann::json;

namespace {

std::string fr_str(const ff::fr_t& x) { return "0x" + x.to_hex(); }

std::string bytes_str(const bytes32_t& b) {
  static const char* d = "0123456789abcdef";
  std::string s = "0x";
  for (auto x : b) s += d[x >> 4], s += d[x & 15];
  return s;
}

json path_json(const merkle_path_t& p) {
  json a = json::array();
  for (const auto& level : p.siblings) {
    json l = json::array();
    for (const auto& x : level) l.push_back(fr_str(x));
    a.push_back(std::move(l));
  }
  return a;
}

json column_json(const column_opening_t& c) {
  json rows = json::array();
  for (const auto& x : c.rows) rows.push_back(fr_str(x));
  return {{"node", c.node}, {"column", std::move(rows)}, {"path", path_json(c.tree_c)}};
}

json challenge_json(const challenge_proof_t& c) {
  json d = json::array();
  for (const auto& level : c.tree_d.siblings) d.push_back(fr_str(level.at(0)));
  json drg = json::array(), exp = json::array();
  for (const auto& p : c.drg_parents) drg.push_back(column_json(p));
  for (const auto& p : c.exp_parents) exp.push_back(column_json(p));
  return {{"node", c.node},
          {"comm_d_proof", {{"leaf", fr_str(c.data_leaf)}, {"path", std::move(d)}}},
          {"drg_parents", std::move(drg)},
          {"exp_parents", std::move(exp)},
          {"column", column_json(c.column)},
          {"comm_r_last_proof", {{"leaf", fr_str(c.replica_leaf)}, {"path", path_json(c.tree_r)}}}};
}

// ---- parsing: every helper takes the JSON path of its element for errors ----

const json& field(const json& obj, const std::string& where, const char* key) {
  if (!obj.is_object()) throw vanilla_format_error(where, "expected a JSON object");
  auto it = obj.find(key);
  if (it == obj.end()) throw vanilla_format_error(where, std::string("missing \"") + key + "\"");
  return *it;
}

ff::fr_t parse_fr(const json& v, const std::string& where) {
  std::optional<ff::fr_t> x;
  if (v.is_number_integer() && v.get<std::int64_t>() >= 0) x = ff::fr_t::from_u64(v.get<std::uint64_t>());
  else if (v.is_string()) {
    const auto& s = v.get_ref<const std::string&>();
    x = (s.starts_with("0x") || s.starts_with("0X")) ? ff::fr_t::from_hex(s) : ff::fr_t::from_decimal(s);
  }
  if (!x) throw vanilla_format_error(where, "expected a field element (0x-hex or decimal string below r), got " + v.dump());
  return *x;
}

std::uint64_t parse_u64(const json& v, const std::string& where) {
  if (v.is_number_unsigned()) return v.get<std::uint64_t>();
  if (v.is_number_integer() && v.get<std::int64_t>() >= 0) return std::uint64_t(v.get<std::int64_t>());
  throw vanilla_format_error(where, "expected a non-negative integer, got " + v.dump());
}

bytes32_t parse_bytes32(const json& v, const std::string& where) {
  const std::string s = v.is_string() ? v.get<std::string>() : std::string();
  if (s.size() != 66 || !(s.starts_with("0x") || s.starts_with("0X")))
    throw vanilla_format_error(where, "expected 32 bytes as \"0x\" + 64 hex digits, got " + v.dump());
  bytes32_t b;
  for (int i = 0; i < 32; ++i) {
    auto nib = [&](char c) -> int {
      if (c >= '0' && c <= '9') return c - '0';
      if (c >= 'a' && c <= 'f') return c - 'a' + 10;
      if (c >= 'A' && c <= 'F') return c - 'A' + 10;
      throw vanilla_format_error(where, "not a hex digit: '" + std::string(1, c) + "'");
    };
    b[i] = std::uint8_t(nib(s[2 + 2 * i]) << 4 | nib(s[3 + 2 * i]));
  }
  return b;
}

const json& array_of(const json& v, const std::string& where, std::size_t want) {
  if (!v.is_array()) throw vanilla_format_error(where, "expected an array");
  if (v.size() != want)
    throw vanilla_format_error(where, "expected " + std::to_string(want) + " entries, got " + std::to_string(v.size()));
  return v;
}

merkle_path_t parse_path(const json& v, const std::string& where, const std::vector<unsigned>& arities) {
  array_of(v, where, arities.size());
  merkle_path_t p;
  for (std::size_t l = 0; l < arities.size(); ++l) {
    const std::string lw = where + "[" + std::to_string(l) + "]";
    array_of(v[l], lw, arities[l] - 1);
    std::vector<ff::fr_t> sib;
    for (std::size_t i = 0; i < v[l].size(); ++i) sib.push_back(parse_fr(v[l][i], lw + "[" + std::to_string(i) + "]"));
    p.siblings.push_back(std::move(sib));
  }
  return p;
}

column_opening_t parse_column(const json& v, const std::string& where, const sector_params_t& sp,
                              const std::vector<unsigned>& cr) {
  column_opening_t c;
  c.node = parse_u64(field(v, where, "node"), where + ".node");
  const std::string rw = where + ".column";
  const json& rows = array_of(field(v, where, "column"), rw, sp.layers);
  for (std::size_t i = 0; i < rows.size(); ++i) c.rows.push_back(parse_fr(rows[i], rw + "[" + std::to_string(i) + "]"));
  c.tree_c = parse_path(field(v, where, "path"), where + ".path", cr);
  return c;
}

challenge_proof_t parse_challenge(const json& v, const std::string& where, const sector_params_t& sp) {
  const auto cr = sp.tree_cr_arities();
  challenge_proof_t c;
  c.node = parse_u64(field(v, where, "node"), where + ".node");
  const std::string dw = where + ".comm_d_proof";
  const json& d = field(v, where, "comm_d_proof");
  c.data_leaf = parse_fr(field(d, dw, "leaf"), dw + ".leaf");
  const json& dp = array_of(field(d, dw, "path"), dw + ".path", sp.tree_d_depth);
  for (std::size_t i = 0; i < dp.size(); ++i)
    c.tree_d.siblings.push_back({parse_fr(dp[i], dw + ".path[" + std::to_string(i) + "]")});
  const json& drg = array_of(field(v, where, "drg_parents"), where + ".drg_parents", drg_degree);
  for (unsigned i = 0; i < drg_degree; ++i)
    c.drg_parents[i] = parse_column(drg[i], where + ".drg_parents[" + std::to_string(i) + "]", sp, cr);
  const json& exp = array_of(field(v, where, "exp_parents"), where + ".exp_parents", expansion_degree);
  for (unsigned i = 0; i < expansion_degree; ++i)
    c.exp_parents[i] = parse_column(exp[i], where + ".exp_parents[" + std::to_string(i) + "]", sp, cr);
  c.column = parse_column(field(v, where, "column"), where + ".column", sp, cr);
  const std::string rw = where + ".comm_r_last_proof";
  const json& r = field(v, where, "comm_r_last_proof");
  c.replica_leaf = parse_fr(field(r, rw, "leaf"), rw + ".leaf");
  c.tree_r = parse_path(field(r, rw, "path"), rw + ".path", cr);
  return c;
}

}  // namespace

json vanilla_to_json(const vanilla_proof_t& p) {
  json j = {{"format", vanilla_format_name},
            {"sector_size", p.params.sector_bytes},
            {"api_version", std::string(to_string(p.params.api_version))},
            {"porep_id", bytes_str(p.params.porep_id())},
            {"model", p.model}};
  if (p.replica_id_inputs)
    j["replica_id_inputs"] = {{"prover_id", bytes_str(p.replica_id_inputs->prover_id)},
                              {"sector_id", p.replica_id_inputs->sector_id},
                              {"ticket", bytes_str(p.replica_id_inputs->ticket)}};
  j["replica_id"] = fr_str(p.replica_id);
  j["seed"] = bytes_str(p.seed);
  j["comm_d"] = fr_str(p.comm_d);
  j["comm_c"] = fr_str(p.comm_c);
  j["comm_r_last"] = fr_str(p.comm_r_last);
  j["comm_r"] = fr_str(p.comm_r);
  json parts = json::array();
  for (const auto& part : p.partitions) {
    json ch = json::array();
    for (const auto& c : part.challenges) ch.push_back(challenge_json(c));
    parts.push_back({{"k", part.index}, {"challenges", std::move(ch)}});
  }
  j["partitions"] = std::move(parts);
  return j;
}

vanilla_proof_t vanilla_from_json(const json& j) {
  const std::string top = "vanilla proof";
  const json& fmt = field(j, top, "format");
  if (fmt != vanilla_format_name)
    throw vanilla_format_error("format", std::string("expected \"") + vanilla_format_name + "\", got " + fmt.dump());
  vanilla_proof_t p;
  const std::uint64_t bytes = parse_u64(field(j, top, "sector_size"), "sector_size");
  const json& av = field(j, top, "api_version");
  if (!av.is_string()) throw vanilla_format_error("api_version", "expected \"1.0\" or \"1.1\"");
  try {
    p.params = sector_params_for(bytes, parse_api_version(av.get<std::string>()));
  } catch (const std::invalid_argument& e) {
    throw vanilla_format_error("sector_size/api_version", e.what());
  }
  if (parse_bytes32(field(j, top, "porep_id"), "porep_id") != p.params.porep_id())
    throw vanilla_format_error("porep_id", "does not match sector_size and api_version (expected " +
                                               bytes_str(p.params.porep_id()) + ")");
  const json& model = field(j, top, "model");
  if (model != "replicated" && model != "sparse")
    throw vanilla_format_error("model", "expected \"replicated\" or \"sparse\", got " + model.dump());
  p.model = model.get<std::string>();
  if (auto it = j.find("replica_id_inputs"); it != j.end()) {
    replica_id_inputs_t r;
    r.prover_id = parse_bytes32(field(*it, "replica_id_inputs", "prover_id"), "replica_id_inputs.prover_id");
    r.sector_id = parse_u64(field(*it, "replica_id_inputs", "sector_id"), "replica_id_inputs.sector_id");
    r.ticket = parse_bytes32(field(*it, "replica_id_inputs", "ticket"), "replica_id_inputs.ticket");
    p.replica_id_inputs = r;
  }
  p.replica_id = parse_fr(field(j, top, "replica_id"), "replica_id");
  p.seed = parse_bytes32(field(j, top, "seed"), "seed");
  p.comm_d = parse_fr(field(j, top, "comm_d"), "comm_d");
  p.comm_c = parse_fr(field(j, top, "comm_c"), "comm_c");
  p.comm_r_last = parse_fr(field(j, top, "comm_r_last"), "comm_r_last");
  p.comm_r = parse_fr(field(j, top, "comm_r"), "comm_r");
  const json& parts = array_of(field(j, top, "partitions"), "partitions", p.params.partitions);
  for (std::size_t k = 0; k < parts.size(); ++k) {
    const std::string pw = "partitions[" + std::to_string(k) + "]";
    partition_proof_t part;
    part.index = unsigned(parse_u64(field(parts[k], pw, "k"), pw + ".k"));
    if (part.index != k) throw vanilla_format_error(pw + ".k", "expected " + std::to_string(k));
    const json& ch = array_of(field(parts[k], pw, "challenges"), pw + ".challenges", p.params.challenges_per_partition);
    for (std::size_t i = 0; i < ch.size(); ++i)
      part.challenges.push_back(parse_challenge(ch[i], pw + ".challenges[" + std::to_string(i) + "]", p.params));
    p.partitions.push_back(std::move(part));
  }
  return p;
}

void write_vanilla_file(const std::filesystem::path& file, const vanilla_proof_t& proof) {
  std::ofstream out(file);
  if (!out) throw std::runtime_error(file.string() + ": cannot open for writing");
  out << vanilla_to_json(proof).dump(1) << '\n';
  if (!out) throw std::runtime_error(file.string() + ": write failed");
}

vanilla_proof_t read_vanilla_file(const std::filesystem::path& file) {
  std::ifstream in(file);
  if (!in) throw vanilla_format_error(file.string(), "cannot open");
  json j;
  try {
    j = json::parse(in);
  } catch (const json::exception& e) {
    // Without nlohmann's "; last read: '<token>'", which can be the rest of the file.
    std::string what = e.what();
    if (auto at = what.find("; last read:"); at != std::string::npos) what.resize(at);
    throw vanilla_format_error(file.string(), "not valid JSON: " + what);
  }
  return vanilla_from_json(j);
}

}  // namespace cuzk::porep
