#include "r1cs/buffer_pool_t.hpp"

namespace cuzk::r1cs {
namespace {

thread_local int keep_depth = 0;
thread_local uint64_t take_token = 0;  // 0: none

}  // namespace

buffer_pool_t::keep_scope::keep_scope() { ++keep_depth; }
buffer_pool_t::keep_scope::~keep_scope() { --keep_depth; }

buffer_pool_t::take_scope::take_scope(uint64_t token) : previous_(std::exchange(take_token, token)) {}
buffer_pool_t::take_scope::~take_scope() { take_token = previous_; }

buffer_pool_t::~buffer_pool_t() {
  uninstall();
  std::vector<std::pair<void*, std::size_t>> doomed;
  for (const auto& [bytes, p] : idle_) doomed.emplace_back(p, bytes);
  for (const auto& [token, buffers] : promised_) {
    for (const auto& [bytes, p] : buffers) doomed.emplace_back(p, bytes);
  }
  free_all(doomed);
}

bool buffer_pool_t::install() {
  large_buffer_cache_t* expected = nullptr;
  return large_buffer_cache.compare_exchange_strong(expected, this, std::memory_order_acq_rel);
}

void buffer_pool_t::uninstall() {
  large_buffer_cache_t* expected = this;
  large_buffer_cache.compare_exchange_strong(expected, nullptr, std::memory_order_acq_rel);
}

void* buffer_pool_t::take(std::size_t bytes) noexcept {
  if (take_token == 0) return nullptr;
  std::lock_guard lk(mu_);
  auto t = promised_.find(take_token);
  if (t == promised_.end()) return nullptr;
  auto it = t->second.find(bytes);
  if (it == t->second.end()) return nullptr;
  void* p = it->second;
  t->second.erase(it);
  promised_bytes_ -= bytes;
  ++hits_;
  return p;
}

bool buffer_pool_t::keep(void* p, std::size_t bytes) noexcept {
  if (keep_depth == 0) return false;
  try {
    std::lock_guard lk(mu_);
    idle_.emplace(bytes, p);
    idle_bytes_ += bytes;
    kept_unbanked_ += bytes;
    return true;
  } catch (...) {  // no memory for the node: the caller frees it
    return false;
  }
}

std::vector<buffer_pool_t::buffers_t::const_iterator> buffer_pool_t::choose_locked(uint64_t max_bytes,
                                                                                   uint64_t& total) const {
  total = 0;
  std::vector<buffers_t::const_iterator> chosen;
  for (auto it = idle_.cbegin(); it != idle_.cend(); ++it) {
    if (total + it->first > max_bytes) continue;
    total += it->first;
    chosen.push_back(it);
  }
  return chosen;
}

uint64_t buffer_pool_t::promisable(uint64_t max_bytes) const {
  std::lock_guard lk(mu_);
  uint64_t total = 0;
  choose_locked(max_bytes, total);
  return total;
}

uint64_t buffer_pool_t::promise(uint64_t token, uint64_t min_bytes, uint64_t max_bytes) {
  std::lock_guard lk(mu_);
  uint64_t total = 0;
  const auto chosen = choose_locked(max_bytes, total);
  if (total == 0 || total < min_bytes) return 0;
  auto& mine = promised_[token];
  for (auto it : chosen) {
    mine.emplace(it->first, it->second);
    idle_.erase(it);
  }
  idle_bytes_ -= total;
  promised_bytes_ += total;
  // Kept bytes not banked yet stay owed by take_kept: promising does not
  // change who pays for them, the claiming reservation pays for these.
  return total;
}

uint64_t buffer_pool_t::forfeit(uint64_t token) {
  std::vector<std::pair<void*, std::size_t>> doomed;
  uint64_t total = 0;
  {
    std::lock_guard lk(mu_);
    auto t = promised_.find(token);
    if (t == promised_.end()) return 0;
    for (const auto& [bytes, p] : t->second) {
      doomed.emplace_back(p, bytes);
      total += bytes;
    }
    promised_bytes_ -= total;
    promised_.erase(t);
  }
  free_all(doomed);
  return total;
}

uint64_t buffer_pool_t::evict(uint64_t bytes) {
  std::vector<std::pair<void*, std::size_t>> doomed;
  uint64_t freed = 0, banked = 0;
  {
    std::lock_guard lk(mu_);
    while (freed < bytes && !idle_.empty()) {
      const auto it = idle_.begin();
      doomed.emplace_back(it->second, it->first);
      freed += it->first;
      idle_.erase(it);
    }
    idle_bytes_ -= freed;
    const uint64_t unbanked = std::min(kept_unbanked_, freed);
    kept_unbanked_ -= unbanked;
    banked = freed - unbanked;
  }
  free_all(doomed);
  return banked;
}

uint64_t buffer_pool_t::take_kept(uint64_t max_bytes) {
  std::lock_guard lk(mu_);
  const uint64_t n = std::min(kept_unbanked_, max_bytes);
  kept_unbanked_ -= n;
  return n;
}

uint64_t buffer_pool_t::idle_bytes() const {
  std::lock_guard lk(mu_);
  return idle_bytes_;
}

uint64_t buffer_pool_t::promised_bytes() const {
  std::lock_guard lk(mu_);
  return promised_bytes_;
}

uint64_t buffer_pool_t::hits() const {
  std::lock_guard lk(mu_);
  return hits_;
}

void buffer_pool_t::free_all(const std::vector<std::pair<void*, std::size_t>>& doomed) noexcept {
  for (const auto& [p, bytes] : doomed) free_large(p, bytes);
}

}  // namespace cuzk::r1cs
