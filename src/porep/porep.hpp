#pragma once
// Public header of the porep layer: the native Filecoin stacked-DRG PoRep
// model (sector parameters, graph, labels, trees) and its vanilla proofs
// (commit inputs) with generator, JSON form and checker. Sits between gadgets
// and circuits; the stacked circuit consumes vanilla_proof_t.
#include "porep/api_version_t.hpp"
#include "porep/challenge_proof_t.hpp"
#include "porep/column_opening_t.hpp"
#include "porep/labeling.hpp"
#include "porep/merkle.hpp"
#include "porep/merkle_path_t.hpp"
#include "porep/partition_proof_t.hpp"
#include "porep/replica_id_inputs_t.hpp"
#include "porep/sector_params_t.hpp"
#include "porep/stacked_graph_t.hpp"
#include "porep/vanilla_checker.hpp"
#include "porep/vanilla_generator.hpp"
#include "porep/vanilla_json.hpp"
#include "porep/vanilla_proof_t.hpp"
