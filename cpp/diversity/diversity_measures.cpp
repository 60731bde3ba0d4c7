#include "diversity/diversity_measures.hpp"

#include "runs/jg_measures.hpp"
#include "runs/trec_bytes.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstring>
#include <limits>

namespace evalcore {

namespace {

// ndeval's discount: 1 at the first rank, log(2) / log(rank + 1) below it.
double discount(size_t i) { return i == 0 ? 1.0 : std::log(2.0) / std::log(static_cast<double>(i) + 2.0); }

// ndeval's computeDCG and computeERR at ranks 0..depth-1 of `gains`: cumulated, then from
// the second rank on divided by the cumulated gains of a ranking covering every one of the
// `subtopics` at every rank (its "ideal ideal"); all 0 without subtopics.
void cumulate(const std::vector<double>& gains, size_t subtopics, double alpha, size_t depth, std::vector<double>& dcg,
              std::vector<double>& err, std::vector<double>& unit_dcg, std::vector<double>& unit_err) {
    dcg.assign(depth, 0.0);
    err.assign(depth, 0.0);
    if (subtopics == 0) return;
    for (size_t i = 0; i < depth && i < gains.size(); ++i) {
        dcg[i] = gains[i] * discount(i);
        err[i] = gains[i] / static_cast<double>(i + 1);
    }
    unit_dcg.assign(depth, 0.0);
    unit_err.assign(depth, 0.0);
    double unit = static_cast<double>(subtopics);
    for (size_t i = 0; i < depth; ++i) {
        unit_dcg[i] = unit * discount(i);
        unit_err[i] = unit / static_cast<double>(i + 1);
        unit *= 1.0 - alpha;
    }
    for (size_t i = 1; i < depth; ++i) {
        dcg[i] += dcg[i - 1];
        unit_dcg[i] += unit_dcg[i - 1];
        err[i] += err[i - 1];
        unit_err[i] += unit_err[i - 1];
    }
    for (size_t i = 1; i < depth; ++i) {
        dcg[i] /= unit_dcg[i];
        err[i] /= unit_err[i];
    }
}

// ndeval's computeNRBP: the gains discounted by beta^rank, times (1 - (1 - alpha) beta) / subtopics.
double nrbp(const std::vector<double>& gains, size_t subtopics, double alpha, double beta) {
    if (subtopics == 0) return 0.0;
    double sum = 0.0, decay = 1.0;
    for (double gain : gains) {
        sum += gain * decay;
        decay *= beta;
    }
    return sum * ((1 - (1 - alpha) * beta) / static_cast<double>(subtopics));
}


// The first 8 bytes of an ID as a big-endian integer, zero-padded: a < b for two prefixes
// means the IDs compare so too (a shorter ID that is the other's start pads with zeros, and
// is the smaller); equal prefixes leave the IDs to compare whole.
uint64_t id_prefix(std::string_view id) {
    const size_t n = id.size() < 8 ? id.size() : 8;
    uint64_t prefix = 0;
    for (size_t i = 0; i < 8; ++i) prefix = (prefix << 8) | (i < n ? static_cast<unsigned char>(id[i]) : 0u);
    return prefix;
}

}  // namespace

bool is_diversity_kind(MeasureKind kind) {
    return kind >= MeasureKind::alpha_dcg && kind <= MeasureKind::st_recall;
}

DiversityScorer::DiversityScorer(const std::vector<Measure>& measures, const RunOptions& options)
    : measures_(measures), options_(options) {
    for (const Measure& m : measures) {
        const double level = std::isnan(m.relevant_at_least) ? options.relevant_at_least : m.relevant_at_least;
        const DiversitySetting setting{level, m.parameters.at(0), m.parameters.at(1),
                                       options.judged_only || m.parameters.at(2) != 0.0};
        size_t s = std::find(settings_.begin(), settings_.end(), setting) - settings_.begin();
        if (s == settings_.size()) {
            settings_.push_back(setting);
            depth_.push_back(1);
        }
        setting_of_.push_back(s);
        depth_[s] = std::max(depth_[s], m.cutoff);
    }
    decays_.resize(settings_.size());
}

// Score descending, then document ID ascending (pyndeval's sort: a total order, as a query
// lists each document once), or the input order; then only the first max_retrieved. A TREC
// run file is mostly in that order already: checked first (scores are finite, so `>` orders
// them as their keys do; a TREC file's reader has said so of each line, in_order, while the
// IDs were in cache), sorted only when it is not, by score and the first 8 bytes of the ID
// (integers), then each run of equal ones by the whole ID.
void DiversityScorer::rank(const std::string_view* docs, const double* scores, const uint8_t* in_order, size_t count) {
    order_.resize(count);
    for (size_t i = 0; i < count; ++i) order_[i] = i;
    if (options_.ties_by_score && scores != nullptr && count > 1) {
        bool ranked = true;
        if (in_order != nullptr) {
            ranked = std::memchr(in_order + 1, 0, count - 1) == nullptr;
        } else {
            for (size_t i = 1; i < count && ranked; ++i) {
                ranked = ranks_after(scores[i - 1], docs[i - 1], scores[i], docs[i]);
            }
        }
        if (!ranked) {
            keys_.resize(count);
            for (size_t i = 0; i < count; ++i) keys_[i] = RankKey{descending_score_key(scores[i]), i, id_prefix(docs[i])};
            std::sort(keys_.begin(), keys_.end(), [](const RankKey& a, const RankKey& b) {
                return a.key != b.key ? a.key < b.key : a.prefix < b.prefix;
            });
            const auto by_id = [docs](const RankKey& a, const RankKey& b) { return id_less(docs[a.at], docs[b.at]); };
            for (size_t first = 0, last = 1; first < count; first = last++) {
                while (last < count && keys_[last].key == keys_[first].key && keys_[last].prefix == keys_[first].prefix) {
                    ++last;
                }
                if (last - first > 1) {
                    std::sort(keys_.begin() + static_cast<ptrdiff_t>(first), keys_.begin() + static_cast<ptrdiff_t>(last), by_id);
                }
            }
            for (size_t r = 0; r < count; ++r) order_[r] = keys_[r].at;
        }
    }
    if (options_.max_retrieved >= 0 && order_.size() > static_cast<size_t>(options_.max_retrieved)) {
        order_.resize(static_cast<size_t>(options_.max_retrieved));
    }
}

// The query's judged documents (rows, numbered as the judgments were grouped) by ID; then the
// judged documents of the ranking, found by their hashes. Most ranked documents
// are not judged (900 of 1,000 a query in the benchmark): a filter of 4,096 bits, one set per
// row at a place its hash's top bits choose, turns most of them away with one test, where a
// probe of the table mispredicted its branches (the lookups were 12 % of the samples).
void DiversityScorer::find_rows(const SubtopicJudgments& judgments, size_t query, const std::string_view* docs,
                                const uint64_t* doc_hashes) {
    const size_t begin = judgments.offsets[query], rows = judgments.row_counts[query];
    row_of_.reset(rows);
    row_docs_.resize(rows);
    row_prefixes_.resize(rows);
    row_filter_.fill(0);
    const auto filter_word = [](uint64_t h) { return static_cast<size_t>(h >> 58); };
    const auto filter_bit = [](uint64_t h) { return uint64_t{1} << ((h >> 52) & 63); };
    for (uint32_t r = 0; r < rows; ++r) {
        const SubtopicRow& first = judgments.judgments[judgments.row_judgments[begin + r]];
        row_of_.insert(first.doc, first.hash, r);
        row_filter_[filter_word(first.hash)] |= filter_bit(first.hash);
        row_docs_[r] = first.doc;
        row_prefixes_[r] = id_prefix(first.doc);
    }
    // First the ranks the filter lets through, gathered without a branch (which of them pass
    // is random: a branch on it mispredicted). Then those whose hash is a row's, found in the
    // table while each one's view is prefetched (docs[at]: one rank in ten is judged, so each
    // is a cache line of its own, written by the reader long before); then the text each
    // view points to is prefetched (scattered over the run: the text read, or the caller's
    // objects); the IDs are compared in a last pass. Loaded one lookup at a time, the misses
    // came one after the other (perf: the comparisons' loads were half of the scoring's
    // samples; with the text's alone prefetched, the view's load before it was a third of
    // find_rows' samples).
    // (Each with its hash: without the reader's, it is taken here once.)
    passed_.resize(order_.size());
    size_t passed = 0;
    for (size_t r = 0; r < order_.size(); ++r) {
        const size_t at = order_[r];
        const uint64_t h = doc_hashes != nullptr ? doc_hashes[at] : IdTable::hash(docs[at]);
        passed_[passed] = PassedRank{r, h};
        passed += (row_filter_[filter_word(h)] & filter_bit(h)) != 0 ? 1 : 0;
    }
    judged_ranks_.clear();
    for (size_t c = 0; c < passed; ++c) {
        const size_t r = passed_[c].rank, at = order_[r];
        const uint32_t* row = row_of_.find_hash(passed_[c].hash);
        if (row == nullptr) continue;
#if defined(__GNUC__) || defined(__clang__)
        __builtin_prefetch(docs + at);
#endif
        judged_ranks_.push_back(JudgedRank{r, *row});
    }
#if defined(__GNUC__) || defined(__clang__)
    for (const JudgedRank& probe : judged_ranks_) __builtin_prefetch(docs[order_[probe.rank]].data());
#endif
    size_t kept = 0;
    for (const JudgedRank& probe : judged_ranks_) {
        const std::string_view doc = docs[order_[probe.rank]];
        if (same_id(doc, row_docs_[probe.row])) {
            judged_ranks_[kept++] = probe;
            continue;
        }
        // Another ID of the same hash: the row of this one, if any, compared whole.
        const uint32_t* row = row_of_.find(doc, doc_hashes != nullptr ? doc_hashes[order_[probe.rank]] : IdTable::hash(doc));
        if (row != nullptr) judged_ranks_[kept++] = JudgedRank{probe.rank, *row};
    }
    judged_ranks_.resize(kept);
}

// For each judged document, the subtopics it is relevant to at `level`: only subtopics with
// a relevant document count (ndeval's actualSubtopics). Each row's list is ascending (the
// order the gains are summed in). The relevant judgments go to their rows by counting (a sort
// of the (row, subtopic) pairs, and a binary search for each pair's subtopic, were a fifth
// of the scoring's samples): the subtopics are numbered among the whole qrels, so their
// positions here come from a table by number.
void DiversityScorer::judge(const SubtopicJudgments& judgments, size_t query, double level) {
    const size_t begin = judgments.offsets[query], end = judgments.offsets[query + 1];
    // The relevant judgments' pairs, each written and kept by the comparison's outcome (a
    // branch on the grade, relevant or not at random, mispredicted).
    pairs_.resize(end - begin);
    size_t kept = 0;
    for (size_t j = begin; j < end; ++j) {
        const SubtopicRow& judgment = judgments.judgments[j];
        pairs_[kept] = {judgments.rows[j], judgment.subtopic};
        kept += judgment.grade >= level ? 1 : 0;
    }
    pairs_.resize(kept);
    subtopic_ids_.clear();
    for (const auto& pair : pairs_) {
        const uint32_t subtopic = pair.second;
        if (subtopic >= position_of_.size()) position_of_.resize(subtopic + size_t{1}, no_position);
        if (position_of_[subtopic] == no_position) {  // first seen in this query
            position_of_[subtopic] = 0;
            subtopic_ids_.push_back(subtopic);
        }
    }
    std::sort(subtopic_ids_.begin(), subtopic_ids_.end());
    for (uint32_t k = 0; k < subtopic_ids_.size(); ++k) position_of_[subtopic_ids_[k]] = k;
    relevant_of_.assign(subtopic_ids_.size(), 0);
    const size_t rows = row_docs_.size();
    row_offsets_.assign(rows + 1, 0);
    for (const auto& pair : pairs_) {
        ++row_offsets_[pair.first + 1];
        ++relevant_of_[position_of_[pair.second]];
    }
    for (size_t r = 0; r < rows; ++r) row_offsets_[r + 1] += row_offsets_[r];
    row_subtopics_.resize(pairs_.size());
    cursor_.assign(row_offsets_.begin(), row_offsets_.end() - 1);
    for (const auto& pair : pairs_) row_subtopics_[cursor_[pair.first]++] = position_of_[pair.second];
    for (size_t r = 0; r < rows; ++r) {  // each row's few subtopics, ascending (mostly already)
        uint32_t* first = row_subtopics_.data() + row_offsets_[r];
        uint32_t* last = row_subtopics_.data() + row_offsets_[r + 1];
        for (uint32_t* i = first + (first != last ? 1 : 0); i < last; ++i) {
            for (uint32_t* k = i; k > first && *(k - 1) > *k; --k) std::swap(*(k - 1), *k);
        }
    }
    for (const uint32_t id : subtopic_ids_) position_of_[id] = no_position;  // the table left empty
}

// ndeval's greedy ideal ranking: at each rank the document of the largest gain, ties to the
// larger document ID. Once no document gains anything, the rest add nothing: it stops there.
// Documents relevant to the same subtopics always have the same gain (the same sum, in the
// same order), so with up to 64 subtopics they are taken in classes, one per set of
// subtopics (a bit mask), each class's documents by ID descending: a rank compares the
// classes' gains (a few dozen documents fall into fewer classes: 5 subtopics make at most 31)
// and takes the head of the best, the larger head ID breaking a tie. The largest (gain, ID)
// is the same as over the documents one by one, which more subtopics still do (in a compact
// list, IDs compared by their first 8 bytes as integers, whole only when those are equal).
// (A lazy choice from a heap, each gain's last value bounding it, was measured slower: the
// many equal gains keep it busy; so were gains kept from rank to rank, updated where the
// picked document shares a subtopic.)
void DiversityScorer::ideal_gains(double alpha) {
    gain_left_.assign(subtopic_ids_.size(), 1.0);
    ideal_.clear();
    candidates_.clear();
    for (uint32_t r = 0; r < row_docs_.size(); ++r) {
        if (row_offsets_[r] != row_offsets_[r + 1]) candidates_.push_back(r);
    }
    // whether row a's document ID is larger than row b's
    const auto larger_id = [this](uint32_t a, uint32_t b) {
        const uint64_t pa = row_prefixes_[a], pb = row_prefixes_[b];
        return pa != pb ? pa > pb : id_less(row_docs_[b], row_docs_[a]);
    };
    const auto take = [&](uint32_t picked, double gain) {
        ideal_.push_back(gain);
        for (size_t k = row_offsets_[picked]; k < row_offsets_[picked + 1]; ++k) gain_left_[row_subtopics_[k]] *= 1.0 - alpha;
    };
    if (subtopic_ids_.size() <= 64) {
        const auto mask_of = [this](uint32_t r) {
            uint64_t mask = 0;
            for (size_t k = row_offsets_[r]; k < row_offsets_[r + 1]; ++k) mask |= uint64_t{1} << row_subtopics_[k];
            return mask;
        };
        class_rows_.clear();
        for (uint32_t r : candidates_) class_rows_.push_back(ClassRow{mask_of(r), r});
        std::sort(class_rows_.begin(), class_rows_.end(), [&](const ClassRow& a, const ClassRow& b) {
            return a.mask != b.mask ? a.mask < b.mask : larger_id(a.row, b.row);
        });
        classes_.clear();
        for (size_t i = 0; i < class_rows_.size(); ++i) {
            if (i == 0 || class_rows_[i].mask != class_rows_[i - 1].mask) classes_.push_back(RowClass{class_rows_[i].mask, i, i});
            classes_.back().end = i + 1;
        }
        while (!classes_.empty()) {
            size_t best = 0;
            double best_gain = 0.0;
            for (size_t c = 0; c < classes_.size(); ++c) {
                double gain = 0.0;  // the subtopics in ascending order, as a row's list holds them
                for (uint64_t bits = classes_[c].mask; bits != 0; bits &= bits - 1) gain += gain_left_[lowest_bit(bits)];
                if (c == 0 || gain > best_gain ||
                    (gain == best_gain && larger_id(class_rows_[classes_[c].next].row, class_rows_[classes_[best].next].row))) {
                    best = c;
                    best_gain = gain;
                }
            }
            if (!(best_gain > 0.0)) break;
            take(class_rows_[classes_[best].next++].row, best_gain);
            if (classes_[best].next == classes_[best].end) {
                classes_[best] = classes_.back();
                classes_.pop_back();
            }
        }
        return;
    }
    while (!candidates_.empty()) {
        size_t best = 0;
        double best_gain = 0.0;
        for (size_t c = 0; c < candidates_.size(); ++c) {
            const uint32_t r = candidates_[c];
            double gain = 0.0;
            for (size_t k = row_offsets_[r]; k < row_offsets_[r + 1]; ++k) gain += gain_left_[row_subtopics_[k]];
            if (c == 0 || gain > best_gain || (gain == best_gain && larger_id(r, candidates_[best]))) {
                best = c;
                best_gain = gain;
            }
        }
        if (!(best_gain > 0.0)) break;
        const uint32_t picked = candidates_[best];
        candidates_[best] = candidates_.back();
        candidates_.pop_back();
        take(picked, best_gain);
    }
}

// The run's gains and counts, visiting its judged documents only (an unjudged one gains
// nothing and counts nothing: 900 of the benchmark's 1,000 a query, which a loop over every
// rank spent a third of the scoring on): the gain at each of the first `depth` ranks, the
// subtopics covered and the relevant (document, subtopic) pairs down to each of them, NRBP's
// sum of the gains discounted by beta^rank (the same terms, added in the same order, as over
// every rank: the others add 0) and AP-IA (ndeval's MAP-IA) over the whole ranking.
void DiversityScorer::run_gains(double alpha, double beta, std::vector<double>& decays, bool judged_only, size_t depth) {
    const size_t subtopics = subtopic_ids_.size();
    gain_left_.assign(subtopics, 1.0);
    covered_.assign(subtopics, 0);
    hits_.assign(subtopics, 0);
    precision_sums_.assign(subtopics, 0.0);
    // Ranks are positions in the ranking, or among its judged documents (ir_measures'
    // judged_only: unjudged documents leave it).
    run_length_ = judged_only ? judged_ranks_.size() : order_.size();
    const size_t kept = std::min(depth, run_length_);
    run_.assign(kept, 0.0);
    covered_at_.assign(kept, 0);
    pairs_at_.assign(kept, 0);
    // beta^rank, by the same products as ndeval's loop (1, beta, beta * beta, ...), kept
    // from query to query.
    if (decays.empty()) decays.push_back(1.0);
    while (decays.size() < run_length_) decays.push_back(decays.back() * beta);
    int64_t covered = 0, pairs = 0;
    run_nrbp_sum_ = 0.0;
    for (size_t j = 0; j < judged_ranks_.size(); ++j) {
        const uint32_t r = judged_ranks_[j].row;
        const size_t position = judged_only ? j : judged_ranks_[j].rank;
        const double rank = static_cast<double>(position + 1);
        double gain = 0.0;
        for (size_t k = row_offsets_[r]; k < row_offsets_[r + 1]; ++k) {
            const uint32_t s = row_subtopics_[k];
            gain += gain_left_[s];
            gain_left_[s] *= 1.0 - alpha;
            covered += covered_[s] ? 0 : 1;
            covered_[s] = 1;
            ++pairs;
            ++hits_[s];
            precision_sums_[s] += static_cast<double>(hits_[s]) / rank;
        }
        run_nrbp_sum_ += gain * decays[position];
        if (position < kept) {
            run_[position] = gain;
            covered_at_[position] = covered;
            pairs_at_[position] = pairs;
        }
    }
    // The counts are nondecreasing down the ranking: an unjudged rank's are the rank before's.
    for (size_t i = 1; i < kept; ++i) {
        covered_at_[i] = std::max(covered_at_[i], covered_at_[i - 1]);
        pairs_at_[i] = std::max(pairs_at_[i], pairs_at_[i - 1]);
    }
    ap_ia_ = 0.0;
    if (subtopics == 0) return;
    for (size_t s = 0; s < subtopics; ++s) ap_ia_ += precision_sums_[s] / static_cast<double>(relevant_of_[s]);
    ap_ia_ /= static_cast<double>(subtopics);
}

void DiversityScorer::score(const SubtopicJudgments& judgments, size_t query, const std::string_view* docs,
                            const double* scores, const uint64_t* doc_hashes, const uint8_t* in_order, size_t count,
                            double* values) {
    rank(docs, scores, in_order, count);
    find_rows(judgments, query, docs, doc_hashes);
    for (size_t s = 0; s < settings_.size(); ++s) {
        const DiversitySetting& setting = settings_[s];
        const size_t depth = static_cast<size_t>(depth_[s]);
        // The relevant judgments depend on the level alone: taken again only when it changes.
        if (s == 0 || setting.level != settings_[s - 1].level) judge(judgments, query, setting.level);
        const size_t subtopics = subtopic_ids_.size();
        ideal_gains(setting.alpha);
        run_gains(setting.alpha, setting.beta, decays_[s], setting.judged_only, depth);
        cumulate(ideal_, subtopics, setting.alpha, depth, ideal_dcg_, ideal_err_, unit_dcg_, unit_err_);
        cumulate(run_, subtopics, setting.alpha, depth, run_dcg_, run_err_, unit_dcg_, unit_err_);
        const double run_nrbp =
            subtopics == 0 ? 0.0 : run_nrbp_sum_ * ((1 - (1 - setting.alpha) * setting.beta) / static_cast<double>(subtopics));
        for (size_t m = 0; m < measures_.size(); ++m) {
            if (setting_of_[m] != s) continue;
            const Measure& measure = measures_[m];
            const size_t k = static_cast<size_t>(std::max<int64_t>(measure.cutoff, 1)) - 1;  // the cutoff's rank
            const size_t seen = std::min(k + 1, run_length_);  // ranks at or above it
            double value = 0.0;
            switch (measure.kind) {
                case MeasureKind::alpha_dcg: value = run_dcg_[k]; break;
                case MeasureKind::alpha_ndcg: value = run_dcg_[k] != 0 ? run_dcg_[k] / ideal_dcg_[k] : 0.0; break;
                case MeasureKind::err_ia: value = run_err_[k]; break;
                case MeasureKind::nerr_ia: value = run_dcg_[k] != 0 ? run_err_[k] / ideal_err_[k] : 0.0; break;
                case MeasureKind::nrbp: value = run_nrbp; break;
                case MeasureKind::nnrbp: {  // undefined without relevant documents (pyndeval's 0/0)
                    const double ideal = nrbp(ideal_, subtopics, setting.alpha, setting.beta);
                    value = ideal != 0 ? run_nrbp / ideal : std::numeric_limits<double>::quiet_NaN();
                    break;
                }
                case MeasureKind::p_ia:
                    if (subtopics != 0) {
                        const int64_t pairs = seen == 0 ? 0 : pairs_at_[seen - 1];
                        value = static_cast<double>(pairs) /
                                static_cast<double>(static_cast<int64_t>(k + 1) * static_cast<int64_t>(subtopics));
                    }
                    break;
                case MeasureKind::ap_ia: value = ap_ia_; break;
                case MeasureKind::st_recall:
                    if (subtopics != 0) {
                        const int64_t covered = seen == 0 ? 0 : covered_at_[seen - 1];
                        value = static_cast<double>(covered) / static_cast<double>(subtopics);
                    }
                    break;
                default: value = std::numeric_limits<double>::quiet_NaN();
            }
            values[m] = value;
        }
    }
}

RunResults evaluate_diversity(const SubtopicJudgments& judgments, const QueryGroups& run,
                              const std::vector<Measure>& measures, const RunOptions& options, unsigned threads) {
    return evaluate_judged_queries(judgments, run, measures.size(), options, threads,
                                   [&] { return DiversityScorer(measures, options); });
}

}  // namespace evalcore
