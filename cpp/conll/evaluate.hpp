// seqeval's numbers over a CoNLL file, streamed (issue 24, items 4 and 6): each sentence's
// tags are interned, chunked and matched as it is read, so memory holds the distinct tags
// and the per-type counts, not the file. Equal to evaluate_tags on the lists read_conll
// gives (tests/conll/); the twin is python/evalcore/reference/conll/evaluate.py.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "conll/reader.hpp"
#include "tags/tags.hpp"

namespace evalcore {
namespace conll {

struct EvaluationOptions {
    tags::Scheme scheme = tags::Scheme::IOB2;  // strict mode's; never Auto (refused before)
    bool strict = false;
    bool suffix = false;
};

struct ConllCounts {
    tags::TypeCounts counts;               // types sorted by name
    std::vector<std::string> type_names;   // by type ID
    int64_t tokens = 0, correct_tokens = 0, sentences = 0, documents = 0;
    // Distinct tags (of either side) whose prefix (first character; last with `suffix`) is not
    // B, I or O: where conlleval.pl's chunk rules can differ from seqeval's default mode.
    int64_t other_prefix_tags = 0;
};

// One file (`pred` null: the gold reader's two tag columns are gold, then predicted) or two
// (each reader's one tag column; the tokens must be the same, sentence by sentence).
ConllCounts evaluate_conll(SentenceReader& gold, SentenceReader* pred, const EvaluationOptions& options);

}  // namespace conll
}  // namespace evalcore
