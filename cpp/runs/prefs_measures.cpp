#include "runs/prefs_measures.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>
#include <string>

namespace evalcore {

bool is_preference_kind(MeasureKind kind) {
    return kind >= MeasureKind::prefs_num_prefs_poss && kind <= MeasureKind::prefs_avgjg_imp;
}

namespace {

// One preference `better` > `worse` (internal ranks) into the group's counts (form_prefs_counts.c).
void classify(PreferenceGroup& g, int64_t better, int64_t worse, int64_t judged_ret) {
    if (better < worse) {
        if (worse < judged_ret) ++g.ful_ret;
        else if (better < judged_ret) ++g.ful_imp;
        else ++g.notoccur;
    } else if (better < judged_ret) {
        ++g.poss_ret;
    } else if (worse < judged_ret) {
        ++g.poss_imp;
    } else {
        ++g.notoccur;
    }
}

struct Member {
    std::string_view subgroup;
    double level;
    int64_t rank;
};

double ratio(int64_t ful, int64_t poss) {  // trec_eval's (double) 0 / 0 is NaN (poss >= ful always)
    return poss != 0 ? static_cast<double>(ful) / static_cast<double>(poss) : std::numeric_limits<double>::quiet_NaN();
}

// m_prefs_avgjg_Rnonrel*.c's recalculate(): the group's counts with only its first R
// non-relevant documents (R: its relevant ones; with `retrieved_only` its retrieved ones).
std::pair<int64_t, int64_t> recalculated(const PreferenceGroup& g, int64_t judged_ret, bool retrieved_only) {
    int64_t ful = 0, poss = 0;
    const auto tally = [&](int64_t a, int64_t b) {
        if (a < b && (retrieved_only || a < judged_ret)) ++ful;
        else ++poss;
    };
    if (!g.classes.empty()) {
        std::vector<std::vector<int64_t>> classes = g.classes;
        if (retrieved_only) {
            for (auto& ranks : classes) {
                ranks.erase(std::remove_if(ranks.begin(), ranks.end(), [&](int64_t r) { return r >= judged_ret; }),
                            ranks.end());
            }
        }
        const size_t n = classes.size();
        const auto& last = classes[n - 1];
        // trec_eval reads R ranks from the last class, past its end when it has fewer (a
        // negative level below the 0s: undefined there); evalcore reads the class only.
        const size_t kept = std::min(last.size(), static_cast<size_t>(retrieved_only ? g.rel_ret : g.rel));
        for (size_t c1 = 0; c1 < n; ++c1) {
            for (size_t c2 = c1 + 1; c2 + 1 < n; ++c2) {
                for (int64_t a : classes[c1]) {
                    for (int64_t b : classes[c2]) tally(a, b);
                }
            }
        }
        for (const auto& ranks : classes) {
            for (int64_t a : ranks) {
                for (size_t k = 0; k < kept; ++k) tally(a, last[k]);
            }
        }
        return {ful, poss + ful};
    }
    const int64_t bound = retrieved_only ? judged_ret : std::numeric_limits<int64_t>::max();
    int64_t seen = 0, first_discarded = bound;
    for (const auto& [rank, level] : g.level) {
        if (rank < bound && level == 0.0 && ++seen == g.rel + 1) {
            first_discarded = rank;
            break;
        }
    }
    const auto discarded = [&](int64_t r) { return r >= first_discarded && g.level.at(r) == 0.0; };
    for (const auto& [a, b] : g.pairs) {
        if (discarded(a) || discarded(b)) continue;
        if (retrieved_only && (a >= judged_ret || b >= judged_ret)) continue;
        tally(a, b);
    }
    return {ful, poss + ful};
}

}  // namespace

PreferenceScorer::PreferenceScorer(const std::vector<Measure>& measures, const RunOptions& options)
    : measures_(measures), options_(options) {}

void PreferenceScorer::count(const Preferences& prefs, size_t query, const std::string_view* docs,
                             const double* scores, size_t n) {
    // The ranking: score descending, then document ID ascending, or the input order; then -M.
    std::vector<size_t> order(n);
    for (size_t i = 0; i < n; ++i) order[i] = i;
    if (options_.ties_by_score && scores != nullptr) {
        std::sort(order.begin(), order.end(), [docs, scores](size_t a, size_t b) {
            if (scores[a] != scores[b]) return scores[a] > scores[b];
            return docs[a] < docs[b];
        });
    }
    if (options_.max_retrieved >= 0 && order.size() > static_cast<size_t>(options_.max_retrieved)) {
        order.resize(static_cast<size_t>(options_.max_retrieved));
    }
    const size_t begin = prefs.query_offsets[query], end = prefs.query_offsets[query + 1];
    std::unordered_map<std::string_view, int64_t> rank_of;
    for (size_t j = begin; j < end; ++j) rank_of.emplace(prefs.doc_ids[j], -1);
    int64_t next = 0;
    for (size_t at : order) {
        const auto found = rank_of.find(docs[at]);
        if (found != rank_of.end() && found->second < 0) found->second = next++;
    }
    judged_ret_ = next;
    std::set<std::string_view> unretrieved;
    for (const auto& [doc, rank] : rank_of) {
        if (rank < 0) unretrieved.insert(doc);
    }
    for (std::string_view doc : unretrieved) rank_of[doc] = next++;
    std::map<std::string_view, std::vector<Member>> by_group;  // byte order of the group names
    for (size_t j = begin; j < end; ++j) {
        by_group[prefs.groups[j]].push_back(Member{prefs.subgroups[j], prefs.levels[j], rank_of[prefs.doc_ids[j]]});
    }
    groups_.clear();
    counts_.clear();
    const int64_t njr = judged_ret_;
    const auto add = [&](PreferenceGroup& g, int64_t better, int64_t worse) {
        ++counts_[{better, worse}];  // uint16_t: wraps as trec_eval's unsigned short
        classify(g, better, worse, njr);
    };
    for (auto& [name, members] : by_group) {
        std::sort(members.begin(), members.end(), [](const Member& a, const Member& b) {
            if (a.subgroup != b.subgroup) return a.subgroup < b.subgroup;
            if (a.level != b.level) return a.level > b.level;
            return a.rank < b.rank;
        });
        PreferenceGroup g;
        if (members.front().subgroup == members.back().subgroup) {  // one sub-group: equivalence classes
            std::vector<double> levels;
            for (const Member& m : members) {
                if (levels.empty() || levels.back() != m.level) {
                    levels.push_back(m.level);
                    g.classes.emplace_back();
                }
                g.classes.back().push_back(m.rank);
            }
            for (size_t c = 0; c < g.classes.size(); ++c) {
                const auto& ranks = g.classes[c];
                int64_t retrieved = 0;
                for (int64_t r : ranks) retrieved += r < njr ? 1 : 0;
                if (levels[c] > 0.0) {
                    g.rel_ret += retrieved;
                    g.rel += static_cast<int64_t>(ranks.size());
                } else {
                    g.nonrel_ret += retrieved;
                    g.nonrel += static_cast<int64_t>(ranks.size());
                }
                for (size_t lower = c + 1; lower < g.classes.size(); ++lower) {
                    for (int64_t better : ranks) {
                        for (int64_t worse : g.classes[lower]) add(g, better, worse);
                    }
                }
            }
        } else {  // several sub-groups: the preferences closed under transitivity
            std::map<int64_t, std::set<int64_t>> edges;
            for (const Member& m : members) {
                g.level[m.rank] = m.level;
                edges[m.rank];
            }
            for (size_t a = 0; a < members.size(); ++a) {
                for (size_t b = a + 1; b < members.size() && members[b].subgroup == members[a].subgroup; ++b) {
                    if (members[b].level < members[a].level) edges[members[a].rank].insert(members[b].rank);
                }
            }
            for (const auto& [start, direct] : edges) {
                std::set<int64_t> seen;
                std::vector<int64_t> stack(direct.begin(), direct.end());
                while (!stack.empty()) {
                    const int64_t node = stack.back();
                    stack.pop_back();
                    if (!seen.insert(node).second) continue;
                    for (int64_t next_node : edges[node]) stack.push_back(next_node);
                }
                for (int64_t worse : seen) {
                    if (worse == start) continue;
                    g.pairs.emplace_back(start, worse);
                    add(g, start, worse);
                }
            }
            for (const auto& [rank, level] : g.level) {
                if (level > 0.0) {
                    ++g.rel;
                    g.rel_ret += rank < njr ? 1 : 0;
                } else if (level == 0.0) {
                    ++g.nonrel;
                    g.nonrel_ret += rank < njr ? 1 : 0;
                }
            }
        }
        g.poss_ret += g.ful_ret;  // trec_eval's possible counts include the fulfilled ones
        g.poss_imp += g.ful_imp;
        groups_.push_back(std::move(g));
    }
}

double PreferenceScorer::per_group(MeasureKind kind) const {
    double total = 0.0;
    for (const PreferenceGroup& g : groups_) {
        if (kind == MeasureKind::prefs_avgjg_rnonrel || kind == MeasureKind::prefs_avgjg_rnonrel_ret) {
            const bool retrieved_only = kind == MeasureKind::prefs_avgjg_rnonrel_ret;
            const int64_t r = retrieved_only ? g.rel_ret : g.rel, n = retrieved_only ? g.nonrel_ret : g.nonrel;
            int64_t ful = 0, poss = 0;
            if (r >= n) {
                ful = g.ful_ret + (retrieved_only ? 0 : g.ful_imp) + g.rel_ret * (r - n);
                poss = g.poss_ret + (retrieved_only ? 0 : g.poss_imp + g.notoccur) + g.rel * (r - n);
            } else {
                std::tie(ful, poss) = recalculated(g, judged_ret_, retrieved_only);
            }
            total += ratio(ful, poss);
            continue;
        }
        const int64_t ful = g.ful_ret + (kind == MeasureKind::prefs_avgjg_ret ? 0 : g.ful_imp);
        int64_t poss = g.poss_ret;
        if (kind == MeasureKind::prefs_avgjg) poss += g.poss_imp + g.notoccur;
        if (kind == MeasureKind::prefs_avgjg_imp) poss += g.poss_imp;
        if (poss != 0) total += static_cast<double>(ful) / static_cast<double>(poss);
    }
    // NaN > 0 is false: a group of 0 / 0 gives the query 0, as in trec_eval.
    return total > 0.0 ? total / static_cast<double>(groups_.size()) : 0.0;
}

// prefs_pair*: the mean over document pairs of the share of their preferences fulfilled, in
// trec_eval's order; regions 1: both retrieved, 2: one of them, 3: neither (counted, adding 0).
double PreferenceScorer::pair_share(int regions) const {
    std::set<std::pair<int64_t, int64_t>> unordered;
    for (const auto& [pair, c] : counts_) {
        const auto reverse = counts_.find({pair.second, pair.first});
        if (c != 0 || (reverse != counts_.end() && reverse->second != 0)) {
            unordered.insert({std::min(pair.first, pair.second), std::max(pair.first, pair.second)});
        }
    }
    const auto count_of = [&](int64_t a, int64_t b) -> double {
        const auto found = counts_.find({a, b});
        return found != counts_.end() ? static_cast<double>(found->second) : 0.0;
    };
    const int64_t njr = judged_ret_;
    double total = 0.0;
    int64_t pairs = 0;
    for (int region = 1; region <= regions; ++region) {
        for (const auto& [i, j] : unordered) {
            const bool in = region == 1 ? j < njr : region == 2 ? (i < njr && j >= njr) : i >= njr;
            if (!in) continue;
            ++pairs;
            if (region < 3) {
                const double up = count_of(i, j), down = count_of(j, i);
                total += up / (up + down);
            }
        }
    }
    return pairs != 0 ? total / static_cast<double>(pairs) : 0.0;
}

double PreferenceScorer::value(MeasureKind kind) const {
    int64_t ful_ret = 0, ful = 0, poss_ret = 0, poss_imp = 0, poss = 0;
    for (const PreferenceGroup& g : groups_) {
        ful_ret += g.ful_ret;
        ful += g.ful_ret + g.ful_imp;
        poss_ret += g.poss_ret;
        poss_imp += g.poss_ret + g.poss_imp;
        poss += g.poss_ret + g.poss_imp + g.notoccur;
    }
    const auto share = [](int64_t top, int64_t bottom) {
        return bottom != 0 ? static_cast<double>(top) / static_cast<double>(bottom) : 0.0;
    };
    switch (kind) {
        case MeasureKind::prefs_num_prefs_poss: return static_cast<double>(poss);
        case MeasureKind::prefs_num_prefs_ful: return static_cast<double>(ful);
        case MeasureKind::prefs_num_prefs_ful_ret: return static_cast<double>(ful_ret);
        case MeasureKind::prefs_simp: return share(ful, poss);
        case MeasureKind::prefs_simp_ret: return share(ful_ret, poss_ret);
        case MeasureKind::prefs_simp_imp: return share(ful, poss_imp);
        case MeasureKind::prefs_pair: return pair_share(3);
        case MeasureKind::prefs_pair_imp: return pair_share(2);
        case MeasureKind::prefs_pair_ret: return pair_share(1);
        default: return per_group(kind);
    }
}

void PreferenceScorer::score(const Preferences& prefs, size_t query, const std::string_view* docs,
                             const double* scores, size_t count_docs, double* values) {
    count(prefs, query, docs, scores, count_docs);
    for (size_t m = 0; m < measures_.size(); ++m) values[m] = value(measures_[m].kind);
}

RunResults evaluate_preferences(const Preferences& prefs, const QueryGroups& run, const std::vector<Measure>& measures,
                                const RunOptions& options) {
    std::unordered_map<std::string_view, size_t> judged;
    for (size_t q = 0; q < prefs.size(); ++q) judged.emplace(prefs.query_ids[q], q);
    std::vector<uint8_t> seen(prefs.size(), 0);
    RunResults results;
    PreferenceScorer scorer(measures, options);
    const size_t width = measures.size();
    const auto add = [&](size_t q, const std::string_view* docs, const double* scores, size_t count) {
        results.query_ids.push_back(results.names.copy(prefs.query_ids[q]));
        results.values.resize(results.values.size() + width);
        scorer.score(prefs, q, docs, scores, count, results.values.data() + results.values.size() - width);
    };
    for (size_t g = 0; g < run.size(); ++g) {
        const auto found = judged.find(run.query_ids[g]);
        if (found == judged.end()) continue;  // no judgments: not scored (as trec_eval)
        seen[found->second] = 1;
        const size_t begin = run.offsets[g];
        add(found->second, run.doc_ids.data() + begin, run.values.empty() ? nullptr : run.values.data() + begin,
            run.offsets[g + 1] - begin);
    }
    for (size_t q = 0; q < prefs.size(); ++q) {
        if (seen[q]) continue;
        results.missing_ids.push_back(results.names.copy(prefs.query_ids[q]));
        if (options.missing_zero) add(q, nullptr, nullptr, 0);
    }
    compute_means(results.values, width, results.mean, results.defined);
    return results;
}

}  // namespace evalcore
