#pragma once
// The parameter (SRS) cache: loads <param_cache>/<circuit_id>.params once
// (for a PoRep id, the official file of its size when the cache has it:
// filecoin/parameter_manifest_t.hpp; a file whose digest matches the
// manifest is loaded without the per-point subgroup checks),
// charges it to the memory budget (the file size, as the Rust daemon does;
// our in-memory points have the file's 96/192-byte layout), and keeps it
// until evicted. Entries are shared: a job holds its entry while it runs, so
// eviction never pulls parameters from under a partition.
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "engine/engine_status_t.hpp"
#include "engine/memory_budget_t.hpp"
#include "engine/param_entry_t.hpp"
#include "groth16/parameters_t.hpp"

namespace cuzk::engine {

// Reads a parameter file. One named in parameters.json whose digest matches is
// the ceremony's file byte for byte: its points were checked when it was made,
// so the per-point subgroup checks (core-hours on the 32 GiB file) are skipped
// (the digest runs beside the parsing, over the same mapped bytes). Any other
// file, or one whose digest differs, is checked point by point.
groth16::parameters_t read_parameter_file(const std::string& path);

class param_store_t {
 public:
  param_store_t(memory_budget_t& budget, std::string param_cache) : budget_(budget), cache_dir_(std::move(param_cache)) {}

  // porep-2k .. porep-64g: <param_cache>/v28-stacked-proof-of-replication-…params
  // when that file exists; otherwise (and for every other id) <param_cache>/<id>.params.
  std::string path_for(const std::string& circuit_id) const;
  // Loaded, registered, or a file exists for it.
  bool available(const std::string& circuit_id) const;
  // Budget bytes these parameters hold once resident: the loaded entry's
  // charge, else the file size (0 if neither exists).
  uint64_t bytes_for(const std::string& circuit_id) const;

  // Loads if needed, waiting for budget (evicting idle entries first); null if
  // `abandon` turned true while waiting. Throws on a missing or malformed file.
  std::shared_ptr<param_entry_t> acquire(const std::string& circuit_id, const std::function<bool()>& abandon,
                                         bool* loaded_now = nullptr);
  void add(const std::string& circuit_id, std::shared_ptr<const groth16::parameters_t> params,
           const std::function<bool()>& abandon);
  // Drops the cache's reference; the bytes return when the last job lets go.
  std::pair<bool, uint64_t> evict(const std::string& circuit_id);
  // Evicts entries loaded from files that only the cache holds, oldest use
  // first, until `want` bytes are freed (or none are left); returns the bytes
  // freed. Registered in-memory parameters stay: nothing could reload them.
  uint64_t evict_idle(uint64_t want, const std::string& keep);

  std::vector<loaded_params_t> list() const;

 private:
  std::shared_ptr<param_entry_t> find(const std::string& circuit_id) const;
  std::shared_ptr<param_entry_t> insert(const std::string& id, std::shared_ptr<const groth16::parameters_t> p,
                                        reservation_t r, uint64_t bytes, uint64_t load_ms, bool from_file);

  memory_budget_t& budget_;
  const std::string cache_dir_;
  mutable std::mutex mu_;
  std::mutex load_mu_;  // one load at a time: two loads of one id must not both charge the budget
  std::map<std::string, std::shared_ptr<param_entry_t>> entries_;
};

}  // namespace cuzk::engine
