#pragma once
// A blocking queue ordered by key (smallest first), optionally bounded, that
// reports its fill statistics. The engine keys partitions by (priority
// descending, job sequence, partition index), so every stage serves the
// oldest job's lowest partition first (CUZK_API.md 4.3, F15). Keys are unique:
// a duplicate is a bug and throws rather than silently replacing an entry
// (the Rust engine's BTreeMap overwrote jobs that shared key (0,0), 7.4).
#include <condition_variable>
#include <cstddef>
#include <limits>
#include <map>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <vector>

namespace cuzk::engine {

template <class Key, class T>
class keyed_queue_t {
 public:
  explicit keyed_queue_t(size_t capacity = std::numeric_limits<size_t>::max()) : capacity_(capacity) {}

  // Blocks while full, unless `past_capacity` (work that must not wait for
  // room: the engine's critical partitions, whose memory the budget has
  // already paid for); false (and the item dropped) once closed.
  bool push(Key key, T item, bool past_capacity = false) {
    std::unique_lock lk(mu_);
    not_full_.wait(lk, [&] { return closed_ || past_capacity || items_.size() < capacity_; });
    if (closed_) return false;
    if (!items_.emplace(std::move(key), std::move(item)).second) throw std::logic_error("keyed_queue_t: duplicate key");
    if (items_.size() > peak_) peak_ = items_.size();
    ++pushed_;
    not_empty_.notify_all();
    return true;
  }

  // The smallest-keyed item that `accept` takes; waits for one. nullopt once
  // closed and nothing acceptable is left.
  template <class Accept>
  std::optional<T> pop(Accept accept) {
    std::unique_lock lk(mu_);
    for (;;) {
      for (auto it = items_.begin(); it != items_.end(); ++it) {
        if (!accept(it->second)) continue;
        T out = std::move(it->second);
        items_.erase(it);
        not_full_.notify_one();
        return out;
      }
      if (closed_) return std::nullopt;
      not_empty_.wait(lk);
    }
  }
  std::optional<T> pop() {
    return pop([](const T&) { return true; });
  }

  // Whether an item keyed below `bound` is one `accept` takes (the
  // dispatcher asks whether more urgent work than its own waits).
  template <class Accept>
  bool any_before(const Key& bound, Accept accept) const {
    std::lock_guard lk(mu_);
    for (auto it = items_.begin(); it != items_.end() && it->first < bound; ++it) {
      if (accept(it->second)) return true;
    }
    return false;
  }

  // Takes out every item matching `pred`; the caller destroys them outside the lock.
  template <class Pred>
  std::vector<T> extract_if(Pred pred) {
    std::vector<T> out;
    {
      std::lock_guard lk(mu_);
      for (auto it = items_.begin(); it != items_.end();) {
        if (pred(it->second)) {
          out.push_back(std::move(it->second));
          it = items_.erase(it);
        } else {
          ++it;
        }
      }
    }
    if (!out.empty()) not_full_.notify_all();
    return out;
  }

  template <class F>
  void for_each(F f) const {
    std::lock_guard lk(mu_);
    for (const auto& [k, v] : items_) f(v);
  }

  // Wakes poppers so they re-run `accept` (its answer may have changed).
  void poke() {
    { std::lock_guard lk(mu_); }
    not_empty_.notify_all();
  }

  void close() {
    {
      std::lock_guard lk(mu_);
      closed_ = true;
    }
    not_empty_.notify_all();
    not_full_.notify_all();
  }

  size_t size() const {
    std::lock_guard lk(mu_);
    return items_.size();
  }
  size_t capacity() const { return capacity_; }
  size_t peak() const {
    std::lock_guard lk(mu_);
    return peak_;
  }
  size_t pushed() const {
    std::lock_guard lk(mu_);
    return pushed_;
  }

 private:
  const size_t capacity_;
  mutable std::mutex mu_;
  std::condition_variable not_empty_, not_full_;
  std::map<Key, T> items_;
  size_t peak_ = 0, pushed_ = 0;
  bool closed_ = false;
};

}  // namespace cuzk::engine
