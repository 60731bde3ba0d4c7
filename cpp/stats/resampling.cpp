#include "stats/resampling.hpp"

#include <algorithm>
#include <stdexcept>

#include "common/parallel.hpp"
#include "stats/counter_random.hpp"
#include "stats/fixed_point.hpp"

namespace evalcore {
namespace {

// The fast form of a two-word integer for summing: v = hi·2^K + lo with 0 <= lo < 2^K, the
// two digits summed separately, without carries between them (an addition is two
// independent instructions, not an add-with-carry chain). K leaves room for n digits lo, and
// the values are narrow enough that n digits hi fit too (checked before it is chosen).
// hi is held as unsigned two's complement (its sums wrap the same way), so that the two
// digits are one array of words and a row of terms adds as a vector.
struct Digits {
    uint64_t lo = 0;
    uint64_t hi = 0;
    void add(const Digits& other) {
        lo += other.lo;
        hi += other.hi;
    }
};

// How the loops add: a value as a term, and a sum of terms back as a Fixed<L>.
template <int L>
struct Wide {
    using Term = Fixed<L>;
    Term term(const Fixed<L>& value) const { return value; }
    Fixed<L> fixed(const Term& sum) const { return sum; }
};

struct Split {
    using Term = Digits;
    int k = 0;
    Term term(const Fixed<2>& value) const {
        const uint64_t mask = (uint64_t{1} << k) - 1;
        // value >> k (arithmetic): the low word's top bits and the high word's low ones
        const uint64_t shifted = (value.limb[0] >> k) | (value.limb[1] << (64 - k));
        return Digits{value.limb[0] & mask, shifted};
    }
    Fixed<2> fixed(const Term& sum) const {
        Fixed<2> high;  // sign-extended hi, shifted left by k
        const uint64_t h = sum.hi;
        high.limb[0] = h << k;
        high.limb[1] = ((h >> 63) != 0 ? ~uint64_t{0} << k : 0) | (h >> (64 - k));
        Fixed<2> low;
        low.limb[0] = sum.lo;
        high.add(low);
        return high;
    }
};

// The group's values as fixed-point integers and as terms, with the sums every resample
// compares against.
template <int L, class Form>
struct Prepared {
    using Term = typename Form::Term;
    size_t n = 0, series = 0;
    int scale = 0;
    Form form;
    std::vector<typename Form::Term> terms;  // series × n (row s: series s)
    // For the bootstrap's draws: series in blocks of `width`, each block n rows of `width`
    // terms (query position q's terms of the block's series; zeros past the last series),
    // one 64-byte line a row for two-word terms, starting at `rows`.
    static constexpr size_t width = sizeof(Term) <= 16 ? 4 : 1;
    std::vector<typename Form::Term> row_storage;
    typename Form::Term* rows = nullptr;
    size_t blocks() const { return (series + width - 1) / width; }
    std::vector<Fixed<L>> totals;  // per series
    std::vector<Fixed<L>> pair_totals, pair_magnitudes;  // S = Σ run − Σ baseline, and |S|
};

// Resamples [first, last) of thread t: a fixed split, so that what each thread counts is
// decided before it starts (the counts are then added, in any order: integers).
std::pair<uint64_t, uint64_t> share(uint64_t resamples, unsigned t, unsigned threads) {
    const uint64_t base = resamples / threads, extra = resamples % threads;
    const uint64_t first = base * t + std::min<uint64_t>(t, extra);
    return {first, first + base + (t < extra ? 1 : 0)};
}

// Resamples are checked for a stop (and counted) this many at a time: a block of the sign-flip
// loop, and as many bootstrap resamples.
constexpr uint64_t checked_every = 64;

unsigned threads_for(const ResamplingPlan& plan) {
    return static_cast<unsigned>(std::max<uint64_t>(1, std::min<uint64_t>(plan.threads, plan.resamples)));
}

std::vector<uint64_t> add_up(const std::vector<std::vector<uint64_t>>& per_thread, size_t size) {
    std::vector<uint64_t> total(size, 0);
    for (const auto& counts : per_thread) {
        for (size_t k = 0; k < size; ++k) total[k] += counts[k];
    }
    return total;
}

// Sign-flip sums by tables: for each `group_bits` consecutive positions, the sums of all
// their subsets, so a resample adds one entry per group (its sign bits index it).
constexpr unsigned group_bits = 4;
constexpr unsigned group_entries = 1u << group_bits, groups_per_word = 64 / group_bits;

template <class P, class Term = typename P::Term>
std::vector<Term> subset_tables(const P& p, size_t s, size_t words) {
    std::vector<Term> table(words * groups_per_word * group_entries);
    const Term* column = &p.terms[s * p.n];
    for (size_t group = 0; group < words * groups_per_word; ++group) {
        Term* entry = &table[group * group_entries];
        for (unsigned subset = 1; subset < group_entries; ++subset) {
            const unsigned low = static_cast<unsigned>(__builtin_ctz(subset));
            const size_t position = group * group_bits + low;
            entry[subset] = entry[subset & (subset - 1)];
            if (position < p.n) entry[subset].add(column[position]);
        }
    }
    return table;
}

// The part of F_r(series) (the series summed over the positions resample r flips) that
// words [first, last) of its sign stream decide, added to `sum`.
template <class Term>
void add_flipped(Term& sum, const std::vector<Term>& table, const Term* column, size_t n, uint64_t key, size_t first,
                 size_t last) {
    if (!table.empty()) {
        Term even{}, odd{};  // two chains: the additions of one do not wait for the other's
        const Term* block = &table[first * groups_per_word * group_entries];
        for (size_t w = first; w < last; ++w) {
            uint64_t bits = sign_word(key, w);
            for (unsigned k = 0; k < groups_per_word; k += 2) {
                even.add(block[bits & (group_entries - 1)]);
                odd.add(block[group_entries + ((bits >> group_bits) & (group_entries - 1))]);
                bits >>= 2 * group_bits;
                block += 2 * group_entries;
            }
        }
        sum.add(even);
        sum.add(odd);
        return;
    }
    for (size_t w = first; w < last; ++w) {
        const uint64_t bits = sign_word(key, w);
        const size_t end = std::min<size_t>(n, (w + 1) * 64);
        for (size_t i = w * 64; i < end; ++i) {
            if ((bits >> (i % 64)) & 1) sum.add(column[i]);
        }
    }
}

template <int L, class Form>
std::vector<uint64_t> sign_flip(const Prepared<L, Form>& p, const SeriesGroup& g, const ResamplingPlan& plan) {
    using Term = typename Form::Term;
    const size_t words = (p.n + 63) / 64, series = p.series, pairs = g.pairs.size();
    // Tables for the two-word sums only: a wide sum's tables would take 4.4 KB a position.
    std::vector<std::vector<Term>> tables(series);
    if (sizeof(Term) <= 16) {
        for (size_t s = 0; s < series; ++s) tables[s] = subset_tables(p, s, words);
    }
    const unsigned threads = threads_for(plan);
    // A thread takes `chunk` resamples at a time through a series' tables, `block` words
    // (512 positions, 32 KB of tables) at a time, so that the part of the tables in use stays
    // in the first-level cache for all of them: 10,000 queries' tables (640 KB) do not fit the
    // second level.
    constexpr size_t chunk = checked_every, block = 8;
    std::vector<std::vector<uint64_t>> counts(threads, std::vector<uint64_t>(pairs, 0));
    std::vector<std::vector<Fixed<L>>> flipped(threads, std::vector<Fixed<L>>(chunk * series));
    std::vector<std::vector<Term>> partial_of(threads, std::vector<Term>(chunk));
    on_threads(threads, [&](unsigned t) {
        const auto range = share(plan.resamples, t, threads);
        std::vector<Fixed<L>>& sums = flipped[t];
        std::vector<Term>& partial = partial_of[t];
        uint64_t keys[chunk];
        for (uint64_t start = range.first; start < range.second; start += chunk) {
            const size_t m = static_cast<size_t>(std::min<uint64_t>(chunk, range.second - start));
            advance(plan.progress, m);
            for (size_t c = 0; c < m; ++c) keys[c] = resample_key(plan.seed, sign_flip_domain, start + c);
            for (size_t s = 0; s < series; ++s) {
                std::fill(partial.begin(), partial.end(), Term{});
                for (size_t first = 0; first < words; first += block) {
                    const size_t last = std::min(words, first + block);
                    for (size_t c = 0; c < m; ++c) add_flipped(partial[c], tables[s], &p.terms[s * p.n], p.n, keys[c], first, last);
                }
                for (size_t c = 0; c < m; ++c) sums[c * series + s] = p.form.fixed(partial[c]);
            }
            for (size_t c = 0; c < m; ++c) {
                for (size_t k = 0; k < pairs; ++k) {
                    Fixed<L> twice = sums[c * series + g.pairs[k].first];
                    twice.subtract(sums[c * series + g.pairs[k].second]);
                    twice.add(Fixed<L>(twice));
                    Fixed<L> flipped_total = p.pair_totals[k];
                    flipped_total.subtract(twice);
                    if (magnitude_at_least(flipped_total, p.pair_magnitudes[k])) ++counts[t][k];
                }
            }
        }
    });
    return add_up(counts, pairs);
}

template <int L, class Form>
void bootstrap(const Prepared<L, Form>& p, const SeriesGroup& g, const ResamplingPlan& plan, GroupOutcome& out) {
    using Term = typename Form::Term;
    if (p.n >= (uint64_t{1} << 32)) throw std::invalid_argument("the bootstrap draws 32-bit indices: fewer than 2^32 queries");
    const size_t series = p.series, pairs = g.pairs.size();
    const uint64_t resamples = plan.resamples;
    const double n = static_cast<double>(p.n);
    out.bootstrap_means.assign(series * resamples, 0.0);
    out.bootstrap_deltas.assign(pairs * resamples, 0.0);
    const unsigned threads = threads_for(plan);
    std::vector<std::vector<uint64_t>> counts(threads, std::vector<uint64_t>(pairs, 0));
    std::vector<std::vector<uint32_t>> draws_of(threads, std::vector<uint32_t>(p.n));
    std::vector<std::vector<Fixed<L>>> totals_of(threads, std::vector<Fixed<L>>(p.blocks() * p.width));
    constexpr size_t width = Prepared<L, Form>::width;
    on_threads(threads, [&](unsigned t) {
        const auto range = share(resamples, t, threads);
        std::vector<uint32_t>& draws = draws_of[t];
        std::vector<Fixed<L>>& totals = totals_of[t];
        for (uint64_t r = range.first; r < range.second; ++r) {
            if ((r - range.first) % checked_every == 0) advance(plan.progress, std::min(checked_every, range.second - r));
            IndexDraws stream(resample_key(plan.seed, bootstrap_domain, r), static_cast<uint32_t>(p.n));
            for (uint32_t& index : draws) index = stream.next();
            // A drawn query's row holds a block's terms: one cache line a draw, and the
            // block's sums stay in registers.
            for (size_t b = 0; b < p.blocks(); ++b) {
                Term sums[width] = {};
                const Term* block = p.rows + b * p.n * width;
                for (const uint32_t index : draws) {
                    const Term* row = block + size_t{index} * width;
                    for (size_t j = 0; j < width; ++j) sums[j].add(row[j]);
                }
                for (size_t j = 0; j < width; ++j) totals[b * width + j] = p.form.fixed(sums[j]);
            }
            for (size_t s = 0; s < series; ++s) out.bootstrap_means[s * resamples + r] = totals[s].rounded(p.scale) / n;
            for (size_t k = 0; k < pairs; ++k) {
                Fixed<L> difference = totals[g.pairs[k].first];
                difference.subtract(totals[g.pairs[k].second]);
                out.bootstrap_deltas[k * resamples + r] = difference.rounded(p.scale) / n;
                difference.subtract(p.pair_totals[k]);
                if (magnitude_at_least(difference, p.pair_magnitudes[k])) ++counts[t][k];
            }
        }
    });
    out.bootstrap_counts = add_up(counts, pairs);
}

template <int L, class Form>
GroupOutcome run(const SeriesGroup& g, const ResamplingPlan& plan, int scale, Form form) {
    Prepared<L, Form> p;
    p.n = g.queries;
    p.series = g.series;
    p.scale = scale;
    p.form = form;
    p.terms.resize(g.series * g.queries);
    const size_t width = Prepared<L, Form>::width;
    if (plan.bootstrap) {  // aligned to 64 bytes by hand: a row then never straddles two lines
        p.row_storage.resize(p.blocks() * width * g.queries + 64 / sizeof(typename Form::Term) + 1);
        const uintptr_t address = reinterpret_cast<uintptr_t>(p.row_storage.data());
        p.rows = p.row_storage.data() + ((64 - address % 64) % 64) / sizeof(typename Form::Term);
    }
    p.totals.assign(g.series, Fixed<L>{});
    for (size_t s = 0; s < g.series; ++s) {
        for (size_t i = 0; i < g.queries; ++i) {
            const Fixed<L> value = Fixed<L>::of(g.values[s * g.queries + i], scale);
            p.totals[s].add(value);
            p.terms[s * g.queries + i] = form.term(value);
            if (plan.bootstrap) p.rows[((s / width) * g.queries + i) * width + s % width] = p.terms[s * g.queries + i];
        }
    }
    GroupOutcome out;
    const double n = static_cast<double>(g.queries);
    for (const Fixed<L>& total : p.totals) out.means.push_back(total.rounded(scale) / n);
    for (const auto& pair : g.pairs) {
        Fixed<L> total = p.totals[pair.first];
        total.subtract(p.totals[pair.second]);
        p.pair_totals.push_back(total);
        p.pair_magnitudes.push_back(total.magnitude());
        out.deltas.push_back(total.rounded(scale) / n);
    }
    if (plan.sign_flip) out.sign_flip_counts = sign_flip(p, g, plan);
    if (plan.bootstrap) bootstrap(p, g, plan, out);
    return out;
}

}  // namespace

GroupOutcome resample_group(const SeriesGroup& group, const ResamplingPlan& plan) {
    if (group.queries == 0) throw std::invalid_argument("a resampling group needs at least one query");
    for (const auto& pair : group.pairs) {
        if (pair.first >= group.series || pair.second >= group.series) throw std::invalid_argument("a pair names a series out of range");
    }
    const FixedLayout layout = fixed_layout(group.values, group.series * group.queries);
    const int bits = fixed_bits_needed(layout, group.queries);
    // Digits: n digits lo below 2^K must sum below 2^64, n digits hi (|hi| < 2^(bits − K))
    // below 2^63. For 10,000 queries that is values of up to 97 bits with their headroom.
    int term_bits = 0;
    while (term_bits < 63 && (uint64_t{1} << term_bits) <= group.queries) ++term_bits;
    const int k = 63 - term_bits;
    if (k >= 1 && bits - k + term_bits <= 62) return run<2>(group, plan, layout.scale, Split{k});
    if (bits <= 2 * 64) return run<2>(group, plan, layout.scale, Wide<2>{});
    if (bits <= 34 * 64) return run<34>(group, plan, layout.scale, Wide<34>{});
    throw std::invalid_argument("values too far apart for the fixed-point sums");  // not reached for doubles
}

}  // namespace evalcore
