// The streamed evaluation of a CoNLL file (evaluate.hpp).
#include "conll/evaluate.hpp"

#include <algorithm>

namespace evalcore {
namespace conll {

namespace {

using tags::Chunk;

std::string at(const std::string& name, int64_t line) { return name + ":" + std::to_string(line); }

// The pred file's sentence against the gold file's: same tokens, same length.
void check_same_tokens(const Sentence& g, const std::string& gold, const Sentence& p, const std::string& pred) {
    const size_t n = std::min(g.size(), p.size());
    for (size_t j = 0; j < n; ++j) {
        if (g.token(j) != p.token(j)) {
            throw InputError(at(gold, g.first_line + static_cast<int64_t>(j)) + ": the token '" + std::string(g.token(j)) +
                             "' is '" + std::string(p.token(j)) + "' at " + at(pred, p.first_line + static_cast<int64_t>(j)) +
                             ": the two files must hold the same tokens, line for line");
        }
    }
    if (g.size() != p.size()) {
        throw InputError(at(gold, g.first_line) + ": the sentence has " + commas(static_cast<int64_t>(g.size())) +
                         " tokens but the one at " + at(pred, p.first_line) + " has " +
                         commas(static_cast<int64_t>(p.size())) + ": the two files must hold the same sentences");
    }
}

std::string refused(const std::string& where, std::string_view tag, const EvaluationOptions& o) {
    return where + ": the tag '" + std::string(tag) + "': mode='strict' with scheme '" + tags::scheme_name(o.scheme) +
           "' takes tags whose " + (o.suffix ? "last" : "first") + " character is one of " +
           tags::prefix_letters(tags::allowed_prefixes(o.scheme)) +
           ", as seqeval does; pass the scheme the data is tagged in, or use mode='default', which reads any tag";
}

}  // namespace

ConllCounts evaluate_conll(SentenceReader& gold, SentenceReader* pred, const EvaluationOptions& options) {
    tags::TagTable table;
    tags::TagParser parser(options.strict, options.suffix);
    tags::DefaultChunker true_chunker, pred_chunker;
    tags::ChunkTally tally;
    std::vector<Chunk> true_chunks, pred_chunks;
    tags::TagCorpus one_true, one_pred;  // strict mode: the sentence
    Sentence g, p;
    ConllCounts out;
    int64_t positions = 0;
    while (gold.next(g)) {
        const Sentence* ps = &g;
        size_t pred_column = 1;
        if (pred != nullptr) {
            if (!pred->next(p)) {
                throw InputError(pred->name() + " ends before the sentence at " + at(gold.name(), g.first_line) +
                                 ": the two files must hold the same sentences");
            }
            check_same_tokens(g, gold.name(), p, pred->name());
            ps = &p;
            pred_column = 0;
        }
        const size_t n = g.size();
        if (static_cast<int64_t>(n) + 1 > tags::max_positions - positions) {
            throw InputError(at(gold.name(), g.first_line) + ": the tags reach " + commas(tags::max_positions) +
                             " positions (tags plus one per sentence) at this sentence, the most one call takes; "
                             "evaluate the file in parts");
        }
        one_true.tags.resize(n);
        one_pred.tags.resize(n);
        for (size_t j = 0; j < n; ++j) {
            one_true.tags[j] = table.intern(g.tag(j, 0));
            one_pred.tags[j] = table.intern(ps->tag(j, pred_column));
            out.correct_tokens += one_true.tags[j] == one_pred.tags[j];
        }
        parser.update(table);
        const tags::ParsedTags& parsed = parser.parsed();
        if (options.strict) {
            const unsigned allowed = tags::allowed_prefixes(options.scheme);
            for (size_t j = 0; j < n; ++j) {
                const auto line = static_cast<int64_t>(j);
                if ((parsed.letter[static_cast<size_t>(one_true.tags[j])] & allowed) == 0) {
                    throw InputError(refused(at(gold.name(), g.first_line + line), g.tag(j, 0), options));
                }
                if ((parsed.letter[static_cast<size_t>(one_pred.tags[j])] & allowed) == 0) {
                    const std::string& name = pred != nullptr ? pred->name() : gold.name();
                    throw InputError(refused(at(name, ps->first_line + line), ps->tag(j, pred_column), options));
                }
            }
            one_true.lengths.assign(1, static_cast<int64_t>(n));
            one_pred.lengths.assign(1, static_cast<int64_t>(n));
            true_chunks = tags::strict_chunks(one_true, parsed, options.scheme);
            pred_chunks = tags::strict_chunks(one_pred, parsed, options.scheme);
        } else {
            // Chunks end where the chunkers are, one position for both: what they emit now is
            // all that can match (a default-mode chunk may still run on past the sentence).
            for (size_t j = 0; j < n; ++j) {
                const auto t = static_cast<size_t>(one_true.tags[j]), q = static_cast<size_t>(one_pred.tags[j]);
                true_chunker.step(parsed.letter[t], parsed.type[t], true_chunks);
                pred_chunker.step(parsed.letter[q], parsed.type[q], pred_chunks);
            }
            true_chunker.step('O', parsed.outside_type, true_chunks);
            pred_chunker.step('O', parsed.outside_type, pred_chunks);
        }
        tally.add(true_chunks, pred_chunks, parsed);
        true_chunks.clear();
        pred_chunks.clear();
        positions += static_cast<int64_t>(n) + 1;
        out.tokens += static_cast<int64_t>(n);
        ++out.sentences;
    }
    if (pred != nullptr && pred->next(p)) {
        throw InputError(gold.name() + " ends before the sentence at " + at(pred->name(), p.first_line) +
                         ": the two files must hold the same sentences");
    }
    if (out.tokens == 0) {
        throw InputError(gold.name() + " holds no token line: token accuracy is undefined (seqeval's accuracy_score "
                         "divides by zero); evaluate at least one token");
    }
    const tags::ParsedTags& parsed = parser.parsed();
    if (!options.strict) {  // get_entities' final "O"
        true_chunker.step('O', parsed.outside_type, true_chunks);
        pred_chunker.step('O', parsed.outside_type, pred_chunks);
        tally.add(true_chunks, pred_chunks, parsed);
    }
    out.counts = tally.sorted(parsed);
    out.type_names = parsed.type_names;
    out.documents = gold.documents();
    for (size_t t = 0; t < table.size(); ++t) {
        const std::string& text = table.text(static_cast<int32_t>(t));
        const char prefix = text.empty() ? '\0' : (options.suffix ? text.back() : text.front());
        if (prefix != 'B' && prefix != 'I' && prefix != 'O') ++out.other_prefix_tags;
    }
    return out;
}

}  // namespace conll
}  // namespace evalcore
