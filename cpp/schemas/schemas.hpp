// nervaluate's SemEval-2013 schemas (strict, exact, partial, ent_type) over a corpus: each
// document's entities matched once per schema family, counts summed over documents.
// Twin: python/evalcore/reference/schemas/ (matching.py step for step); docs/schemas.md.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace evalcore {

// One entity: inclusive offsets (nervaluate's convention), its label's id, its position in
// its document's list (the last key of the order entities are taken in).
struct SchemaEntity {
    int64_t start = 0, end = 0;
    uint32_t label = 0;
    uint32_t position = 0;
};

// Pairs of one matching: correct, and the other overlapping ones (incorrect, or partial).
struct SchemaPairs {
    int64_t correct = 0, other = 0;
};

// The three matchings a scope needs: strict (same bounds and label correct), bounds (same
// bounds: the exact and partial schemas) and ent_type (same label); and the entity counts.
struct SchemaTotals {
    SchemaPairs pairs[3];
    int64_t predicted = 0, truth = 0;
    void add(const SchemaTotals& other) {
        for (int k = 0; k < 3; ++k) {
            pairs[k].correct += other.pairs[k].correct;
            pairs[k].other += other.pairs[k].other;
        }
        predicted += other.predicted;
        truth += other.truth;
    }
};

// The corpus as the bindings read it: document d's true entities are
// truth[truth_begin[d], truth_begin[d + 1]), its predicted ones likewise. Entities whose
// label is not kept are left out of every count (nervaluate's tags=).
struct SchemaCorpus {
    std::vector<SchemaEntity> truth, predicted;
    std::vector<size_t> truth_begin{0}, predicted_begin{0};
    std::vector<uint8_t> kept;  // by label id
    size_t documents() const { return truth_begin.size() - 1; }
};

struct SchemaOutcome {
    SchemaTotals overall;
    std::vector<SchemaTotals> labels;  // by label id
    size_t first_fault = SIZE_MAX;     // the first document needing more than step_limit steps
};

// Every document on up to `threads` threads (the counts are sums of integers: the thread
// count changes nothing). A document taking more than `step_limit` steps is a fault.
SchemaOutcome schemas_evaluate(const SchemaCorpus& corpus, int64_t step_limit, unsigned threads);

}  // namespace evalcore
