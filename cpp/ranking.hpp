// ranking-evaluate (SPEC §2): schema, semantic checks, metrics, evidence and provenance.
#pragma once

#include "evaluation.hpp"
#include "json_document.hpp"
#include "limits.hpp"

namespace evalcore {

// `request` is what RequestReader produced (phase 1 passed). `conventions` has four
// variants, indexed 2 * (gain is exponential) + (unjudged is nonrelevant).
// Throws RequestError; safe to call from many threads at once.
Evaluation ranking_evaluate(const Document& request, const Limits& limits, const ConventionsTable& conventions);

}  // namespace evalcore
