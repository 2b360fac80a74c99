#include "filecoin/json_stream_t.hpp"

#include <stdexcept>

namespace cuzk::filecoin {

using nlohmann::json;

std::string json_error_text(const std::exception& e) {
  std::string s = e.what();
  if (auto at = s.find("; last read:"); at != std::string::npos) s.resize(at);
  if (s.size() > 300) s = s.substr(0, 297) + "...";
  return s;
}

json json_stream_t::parse(std::span<const std::uint8_t> text) {
  root_ = json();
  stack_.clear();
  inner_sizes_.clear();
  element_depth_ = 0;
  error_.clear();
  const bool ok = json::sax_parse(text.begin(), text.end(), this, json::input_format_t::json, true);
  if (!ok) throw std::invalid_argument(error_.empty() ? "not valid JSON" : error_);
  return std::move(root_);
}

// Depth 4 = root object, the streamed key's object, the variant's array, one
// inner array; a value opened there is a streamed element.
bool json_stream_t::at_streamed_position() const {
  return element_depth_ == 0 && stack_.size() == 4 && stack_[0].key == key_ && stack_[1].value->is_object() &&
         stack_[2].value->is_array() && stack_[3].value->is_array();
}

void json_stream_t::flush_bytes(frame_t& f) {
  if (!f.bytes) return;
  f.bytes = false;
  if (f.pending.empty()) return;
  for (auto b : f.pending) f.value->push_back(b);
  f.pending.clear();
}

// No array or object of a C1 holds more than a few dozen entries (37
// parents, 31 path levels) outside the streamed ones; a longer one is an
// attack on memory (a DOM node is 16 bytes or more), refused.
namespace {

constexpr std::size_t max_entries = std::size_t(1) << 16;

void check_room(const json& container) {
  if (container.size() >= max_entries)
    throw std::invalid_argument("an array or object of more than " + std::to_string(max_entries) + " entries");
}

}  // namespace

void json_stream_t::put(json&& v) {
  if (stack_.empty()) {
    root_ = std::move(v);
    return;
  }
  frame_t& f = stack_.back();
  if (f.value->is_object()) {
    check_room(*f.value);
    (*f.value)[f.key] = std::move(v);
    return;
  }
  flush_bytes(f);
  check_room(*f.value);
  f.value->push_back(std::move(v));
}

json* json_stream_t::open(json&& v) {
  if (at_streamed_position()) {
    element_ = std::move(v);
    element_depth_ = stack_.size() + 1;
    return &element_;
  }
  if (stack_.empty()) {
    root_ = std::move(v);
    return &root_;
  }
  frame_t& f = stack_.back();
  check_room(*f.value);
  if (f.value->is_object()) {
    json& slot = (*f.value)[f.key];
    slot = std::move(v);
    return &slot;
  }
  flush_bytes(f);
  f.value->push_back(std::move(v));
  return &f.value->back();
}

bool json_stream_t::close() {
  frame_t& f = stack_.back();
  if (f.bytes && !f.pending.empty()) *f.value = json::binary(std::move(f.pending));
  const bool was_element = element_depth_ == stack_.size();
  stack_.pop_back();
  if (was_element) {
    element_depth_ = 0;
    const std::size_t k = inner_sizes_.size() - 1;
    const std::size_t i = inner_sizes_.back()++;
    sink_(stack_[1].key, k, i, std::move(element_));
    element_ = json();
  }
  return true;
}

bool json_stream_t::null() {
  if (at_streamed_position()) {
    error_ = "a streamed element is null";
    return false;
  }
  put(json(nullptr));
  return true;
}
bool json_stream_t::boolean(bool v) {
  put(json(v));
  return true;
}
bool json_stream_t::number_integer(std::int64_t v) {
  if (v >= 0) return number_unsigned(std::uint64_t(v));
  put(json(v));
  return true;
}
bool json_stream_t::number_unsigned(std::uint64_t v) {
  if (!stack_.empty()) {
    frame_t& f = stack_.back();
    if (f.bytes && v <= 255 && f.pending.size() < 32) {
      f.pending.push_back(std::uint8_t(v));
      return true;
    }
  }
  put(json(v));
  return true;
}
bool json_stream_t::number_float(double v, const std::string&) {
  put(json(v));
  return true;
}
bool json_stream_t::string(std::string& v) {
  put(json(std::move(v)));
  return true;
}
bool json_stream_t::binary(json::binary_t& v) {
  put(json::binary(std::move(v)));
  return true;
}
bool json_stream_t::start_object(std::size_t) {
  json* o = open(json::object());
  stack_.push_back({o, {}, false, {}});
  return true;
}
bool json_stream_t::key(std::string& k) {
  stack_.back().key = std::move(k);
  return true;
}
bool json_stream_t::end_object() { return close(); }
bool json_stream_t::start_array(std::size_t) {
  // An inner array of the streamed position starts: count its elements.
  if (element_depth_ == 0 && stack_.size() == 3 && stack_[0].key == key_ && stack_[1].value->is_object() &&
      stack_[2].value->is_array())
    inner_sizes_.push_back(0);
  json* a = open(json::array());
  stack_.push_back({a, {}, true, {}});
  return true;
}
bool json_stream_t::end_array() { return close(); }
bool json_stream_t::parse_error(std::size_t position, const std::string& last_token,
                                const nlohmann::detail::exception& ex) {
  error_ = "not valid JSON at byte " + std::to_string(position) + " (near '" + last_token.substr(0, 40) +
           "'): " + json_error_text(ex);
  return false;
}

}  // namespace cuzk::filecoin
