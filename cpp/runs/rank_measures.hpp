// trec_eval 10's rank-based measures that read the grade at each rank (m_num_nonrel_judged_ret.c,
// m_Rprec_mult.c, m_unjudged.c, m_rbp.c, m_rbp_resid.c, m_yaap.c, m_infap.c): docs/measures.md
// defines each. `grades[r - 1]` is the grade at rank r (NaN: not in the qrels, trec_eval's
// RELVALUE_NONPOOL; a negative grade: in the pool but unjudged, its RELVALUE_UNJUDGED), over
// the n ranks of the ranking (after -M and -J). Each is summed in rank order, with
// trec_eval's operations in its order, so the doubles are the ones trec_eval prints.
#pragma once

#include <cstddef>
#include <cstdint>

namespace evalcore {

// Retrieved documents judged with a grade of 0 or more but below `threshold`.
double num_nonrel_judged_ret(const double* grades, size_t n, double threshold);

// Precision at rank c = (long)(multiple * R + 0.9), hits(min(c, n)) / c; `hits` is the
// prefix count of relevant documents over ranks 0..n. NaN when c is 0 (R = 0 among them).
double rprec_mult(const int64_t* hits, size_t n, int64_t relevant, double multiple);

// The share of the first k ranks not judged (NaN or negative grade), ranks past n judged.
double unjudged_at(const double* grades, size_t n, int64_t k);

// (rbp reads the gain table: gain_measures.hpp rbp_with_gains.)

// RBP's residual as trec_eval computes it: p^n + (1 - p) * the sum of p^(r-1) over the
// unjudged ranks r, when there is one; 0 otherwise.
double rbp_residual(const double* grades, size_t n, double p);

// Robertson's yet another average precision: log((1 + S) / (1 + R - S)), S the sum of
// precision at each relevant rank (`ap_sum`, AP's numerator).
double yaap(double ap_sum, int64_t relevant);

// Yilmaz and Aslam's inferred AP, trec_eval's formula: documents not in the qrels skipped,
// those in the pool without a judgment (negative grade) counted apart; divided by R.
double inferred_ap(const double* grades, size_t n, double threshold, int64_t relevant);

// issue 25 item 4, ir_measures' Accuracy (its accuracy provider): over the first n ranks, with A
// relevant documents (grade >= threshold) and M others (unjudged ones among them), 1 - S / (M A),
// S the sum over the relevant ones of the others above each. NaN when A or M is 0.
double accuracy(const double* grades, size_t n, double threshold);

// issue 25 item 4, ranx's f1 with `found` relevant documents in the top k (the cutoff, or N
// without one): 2 P R / (P + R), ranx's operations in its order; 0 when k or P + R is 0. It is
// 2 found / (k + R), linear, so ties="average" passes the expected count.
double ranx_f1(double found, size_t k, double relevant);

// issue 25 item 4, ranx's graded rbp: (1 - p) times the sum, in rank order, of terms[i] * p^i,
// p^i by squaring as ranx's numba-compiled `p ** np.arange(n)` computes it.
double ranx_rbp_sum(const double* terms, size_t n, double p);

}  // namespace evalcore
