#pragma once
// Public header of the ec layer.
#include "ec/curves.hpp"
#include "ec/encoding.hpp"
#include "ec/fixed_base_t.hpp"
#include "ec/subgroup.hpp"
