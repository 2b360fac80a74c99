#pragma once
// Proves `count` copies of a request through an engine, keeping `concurrency`
// in flight (each copy gets a fresh job id), like `cuzk-bench batch -c -j`.
#include "engine/bench_report_t.hpp"
#include "engine/engine.hpp"

namespace cuzk::engine {

bench_report_t run_bench(engine_t& engine, const job_request_t& prototype, uint32_t count, uint32_t concurrency);

}  // namespace cuzk::engine
