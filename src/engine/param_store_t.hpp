#pragma once
// The parameter (SRS) cache: loads <param_cache>/<circuit_id>.params once
// (for a PoRep id, the official file of its size when the cache has it:
// filecoin/parameter_manifest_t.hpp; a file whose digest matches the
// manifest is loaded without the per-point subgroup checks),
// charges it to the memory budget (the file size, as the Rust daemon does;
// our in-memory points have the file's 96/192-byte layout), and keeps it
// until evicted. Entries are shared: a job holds its entry while it runs, so
// eviction never pulls parameters from under a partition. Loads of different
// ids run at the same time (a WinningPoSt's file is not read behind a 32 GiB
// PoRep file); two loads of one id take turns, so one file is charged once.
#include <condition_variable>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "engine/engine_status_t.hpp"
#include "engine/memory_budget_t.hpp"
#include "engine/param_entry_t.hpp"
#include "filecoin/parameter_manifest_t.hpp"
#include "groth16/param_io.hpp"
#include "groth16/parameters_t.hpp"

namespace cuzk::engine {

// Reads a parameter file. One named in parameters.json whose digest matches is
// the ceremony's file byte for byte: its points were checked when it was made,
// so the per-point subgroup checks (core-hours on the 32 GiB file) are skipped
// (the digest runs beside the parsing, over the same mapped bytes). Any other
// file, or one whose digest differs, is checked point by point.
// subgroup_checks false skips them for every file (the Rust daemon never
// checks): for parameters whose origin the operator knows (their own setup).
groth16::parameters_t read_parameter_file(const std::string& path, bool subgroup_checks = true);
// That rule alone: the subgroup check the points are first read with, and the
// manifest entry whose digest decides whether they are checked afterwards
// (nullptr: none; the points are read with the checks, or without any).
// Called once per read: with the checks off it warns that they are.
std::pair<ec::subgroup_check, const filecoin::manifest_entry_t*> parameter_read_policy(const std::string& path,
                                                                                      bool subgroup_checks);

class param_store_t {
 public:
  // subgroup_checks: as read_parameter_file's (engine_config_t::param_subgroup_checks).
  param_store_t(memory_budget_t& budget, std::string param_cache, bool subgroup_checks = true)
      : budget_(budget), cache_dir_(std::move(param_cache)), subgroup_checks_(subgroup_checks) {}

  // porep-2k .. porep-64g: <param_cache>/v28-stacked-proof-of-replication-…params,
  // wpost-* / winning-*: <param_cache>/v28-proof-of-spacetime-fallback-…params,
  // when that file exists; otherwise (and for every other id) <param_cache>/<id>.params.
  std::string path_for(const std::string& circuit_id) const;
  // Loaded, registered, or a file exists for it.
  bool available(const std::string& circuit_id) const;
  // Budget bytes these parameters hold once resident: the loaded entry's
  // charge, else the file size, or, for a file the stream hooks would load
  // query by query, what that load reserves (0 if neither exists).
  uint64_t bytes_for(const std::string& circuit_id) const;
  // The whole set's bytes (what the devices hold of it at most): the file
  // size, or a loaded entry's complete size (0 if neither exists).
  uint64_t set_bytes_for(const std::string& circuit_id) const;

  // ready(entry) runs on every entry loaded from a file before anyone else
  // can acquire it (the engine prepares the backend and lets it release the
  // host copy: entry.releasable is still writable then); a throw only warns.
  // on_drop becomes every entry's on_drop. Set before the first acquire.
  void set_hooks(std::function<void(param_entry_t&)> ready, std::function<void(const groth16::parameters_t&)> on_drop);
  // Loads query by query (issue 18): device_queries(id, layout) names the
  // queries (bit q: h, l, a, b_g1, b_g2) the backend would hold itself; those
  // are never read into host memory, and the charge is the rest plus one
  // load window (released after the load). load(entry, unread, file, chk)
  // then runs instead of `ready` and has the backend read them from the
  // file; when it throws, the whole file is read as without these hooks.
  // Set before the first acquire; unset: whole files.
  using device_queries_t = std::function<uint32_t(const std::string&, const groth16::parameter_layout_t&)>;
  using load_t =
      std::function<void(param_entry_t&, uint32_t unread, const groth16::parameter_file_t&, ec::subgroup_check)>;
  void set_stream_hooks(device_queries_t device_queries, load_t load);
  // Host bytes a load's window holds while a backend reads queries from the
  // file (gpu_prover_t::load_chunk_points of the largest point, G2's).
  static constexpr uint64_t load_window_bytes = (uint64_t(1) << 22) * sizeof(groth16::g2_affine_t);
  // The complete parameters of e: e.params, or, when the backend released
  // part of their host copy, the file read again (once; kept with the entry,
  // inside its budget charge). For a backend other than the one that
  // released it (the CPU fallback). Throws like acquire on a bad file.
  // An entry read query by query (streamed) reserves the complete set for
  // the reload first, evicting idle entries if need be; when the budget
  // cannot give it, throws std::runtime_error naming the budget (the
  // partition's attempt fails; nothing waits).
  std::shared_ptr<const groth16::parameters_t> complete(param_entry_t& e);

  // The entry if loaded (or registered), null otherwise; never loads.
  std::shared_ptr<param_entry_t> loaded(const std::string& circuit_id) const;

  // Loads if needed, waiting for budget (evicting idle entries first); null if
  // `abandon` turned true while waiting. Throws on a missing or malformed file.
  std::shared_ptr<param_entry_t> acquire(const std::string& circuit_id, const std::function<bool()>& abandon,
                                         bool* loaded_now = nullptr);
  void add(const std::string& circuit_id, std::shared_ptr<const groth16::parameters_t> params,
           const std::function<bool()>& abandon);
  // add, for parameters the store may hand to the ready hook writable (the
  // caller gives them up: nothing else may read their vectors), with `reload`
  // giving them complete again for complete(); it may throw.
  void add_releasable(const std::string& circuit_id, std::shared_ptr<groth16::parameters_t> params,
                      std::function<groth16::parameters_t()> reload, const std::function<bool()>& abandon);
  // Drops the cache's reference; the bytes return when the last job lets go.
  std::pair<bool, uint64_t> evict(const std::string& circuit_id);
  // Evicts entries loaded from files that only the cache holds, oldest use
  // first, until `want` bytes are freed (or none are left); returns the bytes
  // freed. Registered in-memory parameters stay: nothing could reload them.
  uint64_t evict_idle(uint64_t want, const std::string& keep);

  std::vector<loaded_params_t> list() const;

 private:
  std::shared_ptr<param_entry_t> find(const std::string& circuit_id) const;
  std::shared_ptr<param_entry_t> make_entry(const std::string& id, std::shared_ptr<const groth16::parameters_t> p,
                                            reservation_t r, uint64_t bytes, uint64_t load_ms, bool from_file) const;
  void publish(const std::shared_ptr<param_entry_t>& e);
  void add_entry(const std::string& id, std::shared_ptr<const groth16::parameters_t> p,
                 std::shared_ptr<groth16::parameters_t> releasable, std::function<groth16::parameters_t()> reload,
                 const std::function<bool()>& abandon);
  // Runs ready_ on an entry not yet published (a throw only warns), then publishes it.
  void make_ready_and_publish(const std::shared_ptr<param_entry_t>& e);
  // The load query by query; null when it does not apply or failed (the
  // caller reads the whole file) or when `abandon` turned true (*abandoned).
  std::shared_ptr<param_entry_t> acquire_streamed(const std::string& id, const std::string& path,
                                                  const std::function<bool()>& abandon, bool* abandoned);
  // How a file at `path` is read: the subgroup checks its points need, and
  // whether its digest decides them (an official name, checks on).
  std::pair<ec::subgroup_check, const filecoin::manifest_entry_t*> read_policy(const std::string& path) const;

  // Held while one id is loaded or registered: a second load of that id waits for it.
  class id_lock_t {
   public:
    id_lock_t(param_store_t& store, std::string id);
    ~id_lock_t();
    id_lock_t(const id_lock_t&) = delete;
    id_lock_t& operator=(const id_lock_t&) = delete;

   private:
    param_store_t& store_;
    const std::string id_;
  };

  memory_budget_t& budget_;
  const std::string cache_dir_;
  const bool subgroup_checks_;
  mutable std::mutex mu_;
  std::mutex load_mu_;  // guards loading_
  std::condition_variable load_cv_;
  std::set<std::string> loading_;  // ids an id_lock_t holds
  std::map<std::string, std::shared_ptr<param_entry_t>> entries_;
  std::function<void(param_entry_t&)> ready_;
  std::function<void(const groth16::parameters_t&)> on_drop_;
  device_queries_t device_queries_;
  load_t load_;
  // Layouts bytes_for read, by path, while the file's size and modification
  // time stay the same: admission asks on every submit, and a layout reads
  // and checks the verifying key (25,840 IC points for a WindowPoSt partition).
  struct layout_seen_t {
    uint64_t size = 0;
    std::filesystem::file_time_type mtime;
    std::shared_ptr<const groth16::parameter_layout_t> layout;
  };
  std::shared_ptr<const groth16::parameter_layout_t> layout_of(const std::string& path, uint64_t size) const;
  mutable std::mutex layouts_mu_;
  mutable std::map<std::string, layout_seen_t> layouts_;
};

}  // namespace cuzk::engine
