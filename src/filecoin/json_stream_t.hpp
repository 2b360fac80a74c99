#pragma once
// A streaming JSON reader for C1 outputs: nlohmann's SAX parser feeding a DOM
// builder that
//   - stores every array of 1..32 integers 0..255 as one binary value (a
//     domain value is a JSON array of 32 integers; as a plain DOM each integer
//     would be a 16-byte node, ~16x the text);
//   - hands every element at one nesting position (a C1's challenge objects,
//     vanilla_proofs.<variant>[k][i]) to a callback and drops it, so memory
//     holds one challenge, not the whole file.
// Measured on a 32 GiB C1 (50 MB): see BENCHMARKS.md "C1 parse".
#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <span>
#include <string>

namespace cuzk::filecoin {

// nlohmann's message without its "; last read: '<token>'" part, which for an
// unterminated string is the rest of the file (megabytes, and a gRPC status
// message travels in a header that clients cap at 8 KiB).
std::string json_error_text(const std::exception& e);

class json_stream_t {
 public:
  // (key, k, i, element): key = the member of the streamed object the element
  // is under, k = index in the outer array, i = index in the inner one.
  using sink_t =
      std::function<void(const std::string& key, std::size_t k, std::size_t i, nlohmann::json&& element)>;

  // The streamed position: root object -> key `streamed_key` -> object (any
  // key) -> array -> array -> element.
  json_stream_t(std::string streamed_key, sink_t sink) : key_(std::move(streamed_key)), sink_(std::move(sink)) {}

  // Parses `text`; returns the DOM without the streamed elements (their arrays
  // are left empty). Throws std::invalid_argument with the byte offset on a
  // syntax error; exceptions from the sink propagate.
  nlohmann::json parse(std::span<const std::uint8_t> text);

  // Number of inner arrays seen, and elements in each (in order).
  const std::vector<std::size_t>& inner_sizes() const { return inner_sizes_; }

  // SAX interface (nlohmann::json_sax).
  bool null();
  bool boolean(bool v);
  bool number_integer(std::int64_t v);
  bool number_unsigned(std::uint64_t v);
  bool number_float(double v, const std::string&);
  bool string(std::string& v);
  bool binary(nlohmann::json::binary_t& v);
  bool start_object(std::size_t);
  bool key(std::string& k);
  bool end_object();
  bool start_array(std::size_t);
  bool end_array();
  bool parse_error(std::size_t position, const std::string& last_token, const nlohmann::detail::exception& ex);

 private:
  struct frame_t {
    nlohmann::json* value;    // the container being filled
    std::string key;          // objects: key of the next member
    bool bytes = false;       // arrays: still only small integers, kept in `pending`
    std::vector<std::uint8_t> pending;
  };
  bool at_streamed_position() const;
  void put(nlohmann::json&& v);
  nlohmann::json* open(nlohmann::json&& v);
  void flush_bytes(frame_t& f);
  bool close();

  std::string key_;
  sink_t sink_;
  nlohmann::json root_;
  nlohmann::json element_;  // the streamed element being built
  std::vector<frame_t> stack_;
  std::size_t element_depth_ = 0;  // stack depth of the streamed element, 0 = none
  std::vector<std::size_t> inner_sizes_;
  std::string error_;
};

}  // namespace cuzk::filecoin
