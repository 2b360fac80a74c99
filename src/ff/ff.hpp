#pragma once
// Public header of the ff layer.
#include "ff/fp.hpp"
#include "ff/fp12.hpp"
#include "ff/fp2.hpp"
#include "ff/fp6.hpp"
#include "ff/fr.hpp"
