#include "engine/param_store_t.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <filesystem>
#include <future>

#include "engine/invalid_request.hpp"
#include "engine/never_fits.hpp"
#include "filecoin/parameter_digest.hpp"
#include "filecoin/parameter_manifest_t.hpp"
#include "groth16/param_io.hpp"

namespace cuzk::engine {
namespace {

uint64_t ms_since(std::chrono::steady_clock::time_point t) {
  return uint64_t(std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t).count());
}

constexpr uint32_t all_queries = (1u << groth16::parameter_layout_t::queries) - 1;

std::string query_list(uint32_t mask) {
  std::string s;
  for (uint32_t q = 0; q < groth16::parameter_layout_t::queries; ++q) {
    if (mask >> q & 1) s += (s.empty() ? "" : ", ") + std::string(groth16::parameter_layout_t::name(q));
  }
  return s;
}

// What a load query by query holds while it runs: the queries read into
// host memory, and one window of the largest query read onto the devices.
uint64_t load_need(const groth16::parameter_layout_t& l, uint32_t unread) {
  uint64_t window = 0;
  for (uint32_t q = 0; q < groth16::parameter_layout_t::queries; ++q) {
    if (unread >> q & 1) window = std::max(window, std::min(l.query_bytes(q), param_store_t::load_window_bytes));
  }
  return l.bytes_holding(all_queries & ~unread) + window;
}

std::string reserve_note(const memory_budget_t& b) {
  if (b.critical_reserve() == 0) return "";
  return " (the budget's " + std::to_string(b.total()) + " less " + std::to_string(b.critical_reserve()) +
         " kept for critical work)";
}

}  // namespace

std::pair<ec::subgroup_check, const filecoin::manifest_entry_t*> parameter_read_policy(const std::string& path,
                                                                                      bool subgroup_checks) {
  if (!subgroup_checks) {
    spdlog::warn("parameters {}: per-point subgroup checks off ([srs] subgroup_checks = false)", path);
    return {ec::subgroup_check::skip, nullptr};
  }
  const std::string name = std::filesystem::path(path).filename().string();
  if (const auto* entry = filecoin::parameter_manifest_t::official().find(name)) return {ec::subgroup_check::skip, entry};
  return {ec::subgroup_check::check, nullptr};
}

groth16::parameters_t read_parameter_file(const std::string& path, bool subgroup_checks) {
  const auto policy = parameter_read_policy(path, subgroup_checks);
  const filecoin::manifest_entry_t* entry = policy.second;  // a plain name: lambdas below capture it
  if (!entry) return groth16::read_parameters(path, policy.first);
  std::string got;
  bool trusted = false;
  auto p = groth16::read_parameters_if_trusted(
      path,
      [&](std::span<const uint8_t> bytes) {
        got = filecoin::parameter_digest(bytes);
        return got == entry->digest;
      },
      &trusted);
  if (trusted) {
    spdlog::info("parameters {}: digest {} matches parameters.json (the ceremony's file); subgroup checks skipped",
                 path, got);
  } else {
    spdlog::warn("parameters {}: digest {} is not parameters.json's {} (not the ceremony's file: development "
                 "parameters?); every point was subgroup-checked",
                 path, got.empty() ? "(none)" : got, entry->digest);
  }
  return p;
}

std::string param_store_t::path_for(const std::string& id) const {
  const std::filesystem::path dir(cache_dir_.empty() ? "." : cache_dir_);
  // A PoRep or PoSt id names the official file when the cache holds it (a
  // Filecoin parameter directory, fetched by paramfetch or lotus), else our
  // own <id>.params (what `cuzk setup --params` writes, and the tests use).
  if (const auto c = filecoin::official_circuit_of_id(id)) {
    const auto official = dir / filecoin::parameter_files(c->kind, c->sector_bytes).params;
    std::error_code ec;
    if (std::filesystem::is_regular_file(official, ec)) return official.string();
  }
  return (dir / (id + ".params")).string();
}

param_store_t::id_lock_t::id_lock_t(param_store_t& store, std::string id) : store_(store), id_(std::move(id)) {
  std::unique_lock lk(store_.load_mu_);
  store_.load_cv_.wait(lk, [&] { return !store_.loading_.contains(id_); });
  store_.loading_.insert(id_);
}

param_store_t::id_lock_t::~id_lock_t() {
  {
    std::lock_guard lk(store_.load_mu_);
    store_.loading_.erase(id_);
  }
  store_.load_cv_.notify_all();
}

std::shared_ptr<param_entry_t> param_store_t::loaded(const std::string& id) const { return find(id); }

std::shared_ptr<param_entry_t> param_store_t::find(const std::string& id) const {
  std::lock_guard lk(mu_);
  auto it = entries_.find(id);
  return it == entries_.end() ? nullptr : it->second;
}

bool param_store_t::available(const std::string& id) const {
  if (find(id)) return true;
  std::error_code ec;
  return std::filesystem::is_regular_file(path_for(id), ec);
}

uint64_t param_store_t::bytes_for(const std::string& id) const {
  if (auto e = find(id)) return e->bytes;
  const std::string path = path_for(id);
  std::error_code ec;
  auto size = std::filesystem::file_size(path, ec);
  if (ec) return 0;
  if (device_queries_ && load_) {
    try {
      const auto layout = layout_of(path, uint64_t(size));
      const uint32_t unread = device_queries_(id, *layout) & all_queries;
      if (unread) return load_need(*layout, unread);
    } catch (const std::exception&) {
      // A bad file: its load says what is wrong.
    }
  }
  return uint64_t(size);
}

std::shared_ptr<const groth16::parameter_layout_t> param_store_t::layout_of(const std::string& path,
                                                                             uint64_t size) const {
  std::error_code ec;
  const auto mtime = std::filesystem::last_write_time(path, ec);
  {
    std::lock_guard lk(layouts_mu_);
    auto it = layouts_.find(path);
    if (!ec && it != layouts_.end() && it->second.size == size && it->second.mtime == mtime) return it->second.layout;
  }
  auto layout = std::make_shared<const groth16::parameter_layout_t>(groth16::parameter_file_t(path).layout());
  if (!ec) {
    std::lock_guard lk(layouts_mu_);
    layouts_[path] = {size, mtime, layout};
  }
  return layout;
}

std::shared_ptr<param_entry_t> param_store_t::make_entry(const std::string& id,
                                                         std::shared_ptr<const groth16::parameters_t> p,
                                                         reservation_t r, uint64_t bytes, uint64_t load_ms,
                                                         bool from_file) const {
  auto e = std::make_shared<param_entry_t>();
  e->circuit_id = id;
  e->pvk = std::make_unique<groth16::prepared_vk_t>(p->vk);
  e->params = std::move(p);
  e->reservation = std::move(r);
  e->bytes = bytes;
  e->load_ms = load_ms;
  e->from_file = from_file;
  e->on_drop = on_drop_;
  e->touch();
  return e;
}

void param_store_t::publish(const std::shared_ptr<param_entry_t>& e) {
  std::shared_ptr<param_entry_t> old;  // freed outside the lock: its reservation takes the budget's
  std::lock_guard lk(mu_);
  old = std::exchange(entries_[e->circuit_id], e);
}

uint64_t param_store_t::set_bytes_for(const std::string& id) const {
  if (auto e = find(id)) return e->streamed ? e->full_bytes : e->bytes;
  std::error_code ec;
  auto size = std::filesystem::file_size(path_for(id), ec);
  return ec ? 0 : uint64_t(size);
}

void param_store_t::set_stream_hooks(device_queries_t device_queries, load_t load) {
  device_queries_ = std::move(device_queries);
  load_ = std::move(load);
}

std::pair<ec::subgroup_check, const filecoin::manifest_entry_t*> param_store_t::read_policy(
    const std::string& path) const {
  return parameter_read_policy(path, subgroup_checks_);
}

void param_store_t::set_hooks(std::function<void(param_entry_t&)> ready,
                              std::function<void(const groth16::parameters_t&)> on_drop) {
  ready_ = std::move(ready);
  on_drop_ = std::move(on_drop);
}

std::shared_ptr<const groth16::parameters_t> param_store_t::complete(param_entry_t& e) {
  if (e.host_released == 0) return e.params;
  std::lock_guard lk(e.complete_mu);
  if (!e.complete) {
    if (e.streamed) {
      // Its charge holds only what was read; the reload is paid here, or refused now (never waited for: the
      // worker asking may be the one the partitions holding the budget need).
      auto r = budget_.try_reserve(e.full_bytes, true);
      if (!r) {
        evict_idle(e.full_bytes, e.circuit_id);
        r = budget_.try_reserve(e.full_bytes, true);
      }
      if (!r) {
        throw std::runtime_error("parameters '" + e.circuit_id + "': the CPU fallback needs " +
                                 std::to_string(e.full_bytes) + " bytes to read them whole again, and the memory "
                                 "budget of " + std::to_string(budget_.total()) + " bytes has " +
                                 std::to_string(budget_.reserved()) + " reserved" + reserve_note(budget_));
      }
      e.complete_reservation = std::move(*r);
    }
    spdlog::warn("parameters '{}': loading them again for the CPU fallback (the host copy of the device-resident "
                 "queries was released)",
                 e.circuit_id);
    try {
      e.complete = std::make_shared<const groth16::parameters_t>(e.reload());
    } catch (...) {
      e.complete_reservation.release();
      throw;
    }
  }
  return e.complete;
}

std::shared_ptr<param_entry_t> param_store_t::acquire_streamed(const std::string& id, const std::string& path,
                                                               const std::function<bool()>& abandon,
                                                               bool* abandoned) {
  *abandoned = false;
  auto file = std::make_shared<const groth16::parameter_file_t>(path);  // a bad layout: the file is bad
  const auto& layout = file->layout();
  const uint32_t unread = device_queries_(id, layout) & all_queries;
  if (!unread) return nullptr;
  const uint32_t held = all_queries & ~unread;
  const uint64_t charge = layout.bytes_holding(held);
  const uint64_t need = load_need(layout, unread);
  if (need > budget_.limit(memory_budget_t::share_t::general)) return nullptr;  // the whole read says why
  auto r = budget_.try_reserve(need, true);
  if (!r) {
    evict_idle(need, id);
    r = budget_.reserve(need, abandon, true);
    if (!r) return *abandoned = true, nullptr;
  }
  const auto t0 = std::chrono::steady_clock::now();
  const auto [chk, official] = read_policy(path);
  // The digest reads the file with its own small buffer beside the loads.
  std::future<std::string> digest;
  if (official) {
    digest = std::async(std::launch::async, [path] {
      try {
        return filecoin::file_parameter_digest(path);
      } catch (const std::exception&) {
        return std::string();  // unreadable: every point is checked
      }
    });
  }
  struct join_t {  // the digest thread never outlives this call
    std::future<std::string>& f;
    ~join_t() {
      if (f.valid()) f.wait();
    }
  } join{digest};
  auto p = std::make_shared<groth16::parameters_t>(file->read_queries(held, chk));
  auto e = make_entry(id, p, std::move(*r), need, 0, true);
  e->streamed = true;
  e->full_bytes = layout.bytes_holding(all_queries);
  e->host_released = e->full_bytes - charge;
  e->reload = [path, checks = subgroup_checks_] { return read_parameter_file(path, checks); };
  try {
    load_(*e, unread, *file, chk);
  } catch (const groth16::format_error&) {
    throw;  // a bad point: the whole read would fail on it too
  } catch (const std::exception& err) {
    spdlog::warn("parameters {}: reading {} onto the devices failed ({}); reading the whole file instead", path,
                 query_list(unread), err.what());
    return nullptr;  // e goes: the backend forgets what it built, the reservation returns
  }
  if (official) {
    const std::string got = digest.get();
    if (got == official->digest) {
      spdlog::info("parameters {}: digest {} matches parameters.json (the ceremony's file); subgroup checks skipped",
                   path, got);
    } else {
      spdlog::warn("parameters {}: digest {} is not parameters.json's {} (not the ceremony's file: development "
                   "parameters?); checking every point's subgroup",
                   path, got.empty() ? "(none)" : got, official->digest);
      for (uint32_t q = 0; q < groth16::parameter_layout_t::queries; ++q) file->check_subgroups(q);
    }
  }
  e->load_ms = ms_since(t0);
  e->reservation.shrink_to(charge, "params_loaded");
  e->bytes = charge;
  spdlog::info("parameters {}: {} read onto the devices from the file, never into host memory ({} bytes); {} bytes "
               "held here, in {} ms",
               path, query_list(unread), e->host_released, charge, e->load_ms);
  publish(e);
  return e;
}

std::shared_ptr<param_entry_t> param_store_t::acquire(const std::string& id, const std::function<bool()>& abandon,
                                                      bool* loaded_now) {
  if (loaded_now) *loaded_now = false;
  if (auto e = find(id)) return e->touch(), e;
  id_lock_t load(*this, id);
  if (auto e = find(id)) return e->touch(), e;
  const std::string path = path_for(id);
  std::error_code ec;
  const auto size = std::filesystem::file_size(path, ec);
  if (ec) throw invalid_request("no parameters for circuit '" + id + "': " + path + ": " + ec.message());
  if (device_queries_ && load_) {
    bool abandoned = false;
    if (auto e = acquire_streamed(id, path, abandon, &abandoned)) {
      if (loaded_now) *loaded_now = true;
      return e;
    }
    if (abandoned) return nullptr;
  }
  // Loaded parameters stay, so they never use the critical reserve.
  const uint64_t room = budget_.limit(memory_budget_t::share_t::general);
  if (size > room) {
    throw never_fits("parameters " + path + " (" + std::to_string(size) + " bytes) exceed the memory budget of " +
                     std::to_string(room) + " bytes" + reserve_note(budget_));
  }
  auto r = budget_.try_reserve(size, true);
  if (!r) {
    evict_idle(size, id);
    r = budget_.reserve(size, abandon, true);
    if (!r) return nullptr;
  }
  const auto t0 = std::chrono::steady_clock::now();
  auto p = std::make_shared<groth16::parameters_t>(read_parameter_file(path, subgroup_checks_));
  const uint64_t load_ms = ms_since(t0);
  auto e = make_entry(id, p, std::move(*r), size, load_ms, true);
  e->releasable = std::move(p);
  e->reload = [path, checks = subgroup_checks_] { return read_parameter_file(path, checks); };
  if (loaded_now) *loaded_now = true;
  make_ready_and_publish(e);
  return e;
}

void param_store_t::make_ready_and_publish(const std::shared_ptr<param_entry_t>& e) {
  if (ready_) {
    try {
      ready_(*e);
    } catch (const std::exception& err) {
      spdlog::warn("parameters '{}': preparing the backend failed: {}", e->circuit_id, err.what());
    }
  }
  e->releasable.reset();  // published: read-only from here on
  publish(e);
}

void param_store_t::add(const std::string& id, std::shared_ptr<const groth16::parameters_t> p,
                        const std::function<bool()>& abandon) {
  add_entry(id, std::move(p), nullptr, {}, abandon);
}

void param_store_t::add_releasable(const std::string& id, std::shared_ptr<groth16::parameters_t> p,
                                   std::function<groth16::parameters_t()> reload,
                                   const std::function<bool()>& abandon) {
  std::shared_ptr<const groth16::parameters_t> view = p;
  add_entry(id, std::move(view), std::move(p), std::move(reload), abandon);
}

void param_store_t::add_entry(const std::string& id, std::shared_ptr<const groth16::parameters_t> p,
                              std::shared_ptr<groth16::parameters_t> releasable,
                              std::function<groth16::parameters_t()> reload, const std::function<bool()>& abandon) {
  if (!p) throw std::invalid_argument("register_parameters: null parameters for '" + id + "'");
  const uint64_t bytes = p->bytes();
  const uint64_t room = budget_.limit(memory_budget_t::share_t::general);
  if (bytes > room) {
    throw never_fits("parameters for '" + id + "' (" + std::to_string(bytes) + " bytes) exceed the memory budget of " +
                     std::to_string(room) + " bytes" + reserve_note(budget_));
  }
  id_lock_t load(*this, id);
  evict(id);
  auto r = budget_.try_reserve(bytes, true);
  if (!r) {
    evict_idle(bytes, id);
    r = budget_.reserve(bytes, abandon, true);
    if (!r) throw std::runtime_error("register_parameters: engine stopping");
  }
  auto e = make_entry(id, std::move(p), std::move(*r), bytes, 0, false);
  if (releasable && reload) {
    e->releasable = std::move(releasable);
    e->reload = std::move(reload);
    make_ready_and_publish(e);
  } else {
    publish(e);
  }
}

std::pair<bool, uint64_t> param_store_t::evict(const std::string& id) {
  std::shared_ptr<param_entry_t> e;
  {
    std::lock_guard lk(mu_);
    auto it = entries_.find(id);
    if (it == entries_.end()) return {false, 0};
    e = std::move(it->second);
    entries_.erase(it);
  }
  return {true, e->bytes};
}

uint64_t param_store_t::evict_idle(uint64_t want, const std::string& keep) {
  std::vector<std::shared_ptr<param_entry_t>> victims;
  uint64_t freed = 0;
  {
    std::lock_guard lk(mu_);
    std::vector<std::shared_ptr<param_entry_t>> idle;
    for (auto& [id, e] : entries_) {
      if (id != keep && e->from_file && e.use_count() == 1) idle.push_back(e);
    }
    std::sort(idle.begin(), idle.end(), [](const auto& a, const auto& b) { return a->last_used < b->last_used; });
    for (auto& e : idle) {
      if (freed >= want) break;
      freed += e->bytes;
      entries_.erase(e->circuit_id);
      victims.push_back(std::move(e));
    }
  }
  return freed;  // victims' reservations return here, outside the map lock
}

std::vector<loaded_params_t> param_store_t::list() const {
  std::vector<loaded_params_t> out;
  const auto now = std::chrono::steady_clock::now().time_since_epoch().count();
  std::lock_guard lk(mu_);
  for (const auto& [id, e] : entries_) {
    const double idle = double(now - e->last_used) * std::chrono::steady_clock::period::num /
                        std::chrono::steady_clock::period::den;
    out.push_back({id, e->bytes, e->host_released, e->load_ms, idle, uint32_t(e.use_count() - 1)});
  }
  return out;
}

}  // namespace cuzk::engine
