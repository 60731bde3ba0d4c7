"""The distribution functions behind :func:`evalcore.compare`'s classical tests: Student's
t (two-sided tail probability and quantiles), the normal tail, and the null distribution of
Wilcoxon's signed-rank statistic.

Pure Python on ``math`` alone: the runtime dependency stays numpy, and scipy is not needed.
Both backends (the native API and :mod:`evalcore.reference`) call these same functions on
the statistics they computed themselves (sums, ranks: the part that grows with the number of
queries), so the two agree bit for bit. The tests check them against scipy.stats to 1e-12
relative. ``math.erfc``, ``lgamma``, ``log1p`` and ``exp`` are the platform's libm: another
platform may differ in the last bits of a p-value, never in a resampling result.

Notation: ``df`` is a positive integer (n - 1 paired queries); every p-value is two-sided.
"""

from __future__ import annotations

import functools
import math
from typing import List, Sequence, Tuple

_SQRT1_2 = math.sqrt(0.5)  # the double nearest 1/sqrt(2), as Cephes' M_SQRT1_2
_LOG_SQRT_PI = 0.5 * math.log(math.pi)
_EPS = 2.0**-52
_TINY = 1e-300  # Lentz's stand-in for a zero denominator


# ---- the normal distribution -----------------------------------------------------------


def normal_cdf(x: float) -> float:
    """Φ(x) as Cephes' ndtr (scipy.special.ndtr) computes it: erf near 0, erfc in the tails,
    so that tail probabilities keep their relative accuracy."""
    if math.isnan(x):
        return math.nan
    y = x * _SQRT1_2
    z = abs(y)
    if z < _SQRT1_2:
        return 0.5 + 0.5 * math.erf(y)
    tail = 0.5 * math.erfc(z)
    return 1.0 - tail if y > 0 else tail


def normal_two_sided(z: float) -> float:
    """2·P(Z ≥ |z|) for a standard normal Z (NaN stays NaN)."""
    return 2.0 * normal_cdf(-abs(z)) if not math.isnan(z) else math.nan


def _normal_quantile_guess(p: float) -> float:
    """Acklam's rational approximation of Φ⁻¹(p), 0 < p < 1 (relative error < 1.2e-9):
    only a starting point for Newton's method below."""
    a = (-3.969683028665376e01, 2.209460984245205e02, -2.759285104469687e02, 1.383577518672690e02,
         -3.066479806614716e01, 2.506628277459239e00)
    b = (-5.447609879822406e01, 1.615858368580409e02, -1.556989798598866e02, 6.680131188771972e01,
         -1.328068155288572e01)
    c = (-7.784894002430293e-03, -3.223964580411365e-01, -2.400758277161838e00, -2.549732539343734e00,
         4.374664141464968e00, 2.938163982698783e00)
    d = (7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e00, 3.754408661907416e00)
    if p < 0.02425:
        q = math.sqrt(-2 * math.log(p))
        return (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) / \
            ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1)
    if p > 1 - 0.02425:
        return -_normal_quantile_guess(1 - p)
    q = p - 0.5
    r = q * q
    return (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q / \
        (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1)


# ---- Student's t -----------------------------------------------------------------------


def _log_gamma_half_ratio(a: float) -> float:
    """ln Γ(a + 1/2) − ln Γ(a), a > 0. For large a the two lgammas are large and nearly
    equal (lgamma(5000) ≈ 37,586): their difference would lose 1e-12 of its absolute accuracy,
    which the p-value inherits as relative error. So from a = 10 on, the asymptotic series of
    the difference (from Stirling's series: the Bernoulli terms (2^{1-k} − 2)·B_k / (k(k−1)
    a^{k−1})) is used; its truncation error there is below 1e-15."""
    if a < 10.0:
        return math.lgamma(a + 0.5) - math.lgamma(a)
    w = 1.0 / a
    w2 = w * w
    series = w * (-1.0 / 8 + w2 * (1.0 / 192 + w2 * (-1.0 / 640 + w2 * (17.0 / 14336 + w2 * (
        -31.0 / 18432 + w2 * (691.0 / 180224))))))
    return 0.5 * math.log(a) + series


def _beta_continued_fraction(a: float, b: float, x: float) -> float:
    """The continued fraction of I_x(a, b) (Numerical Recipes' betacf, modified Lentz), for
    x < (a + 1)/(a + b + 2), where it converges fast."""
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c = 1.0
    d = 1.0 - qab * x / qap
    d = 1.0 / (d if abs(d) >= _TINY else _TINY)
    h = d
    for m in range(1, 100_000):
        m2 = 2 * m
        for aa in (m * (b - m) * x / ((qam + m2) * (a + m2)), -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))):
            d = 1.0 + aa * d
            d = 1.0 / (d if abs(d) >= _TINY else _TINY)
            c = 1.0 + aa / c
            if abs(c) < _TINY:
                c = _TINY
            step = d * c
            h *= step
        if abs(step - 1.0) <= _EPS:
            return h
    raise ArithmeticError(f"the incomplete beta continued fraction did not converge (a={a}, b={b}, x={x})")


def _beta_power_series(a: float, b: float, x: float, log_factor: float) -> float:
    """I_x(a, b) = x^a / (a·B(a, b)) · (1 + a·Σ_{n≥1} (1−b)_n/n! · x^n/(a+n)) (TOMS 708's
    bpser), given ln(x^a / (a·B(a, b))). For x ≤ 0.7, or b·x small."""
    total, c, n, tol = 0.0, 1.0, 0, _EPS / a
    while True:
        n += 1
        c *= (0.5 + (0.5 - b / n)) * x
        w = c / (a + n)
        total += w
        if abs(w) <= tol:
            return math.exp(log_factor) * (1.0 + a * total)


def _beta_large_a_half(a: float, log_x: float) -> float:
    """I_x(a, 1/2) for a ≥ 15 and x ≥ 0.7: TOMS 708's bgrat (DiDonato and Morris'
    asymptotic expansion for a much larger than b ≤ 1) with b = 1/2, where its incomplete
    gamma ratio Q(1/2, z) is erfc(√z). The continued fraction is ill-conditioned there
    (measured: 8e-11 off at df = 10^6, t = 2.09)."""
    b, bm1 = 0.5, -0.5
    nu = a - 0.25
    z = -nu * log_x
    r = math.sqrt(z / math.pi) * math.exp(a * log_x + 0.5 * bm1 * log_x)  # e^{-z} z^b / Γ(b), times x^{-1/4}
    u = r * math.exp(_log_gamma_half_ratio(a) - b * math.log(nu))
    if u == 0.0:
        return 0.0
    j = math.erfc(math.sqrt(z)) / r
    total, t, cn, n2 = j, 1.0, 1.0, 0.0
    v, t2 = 0.25 / (nu * nu), 0.25 * log_x * log_x
    c, d = [0.0] * 31, [0.0] * 31
    for n in range(1, 31):
        bp2n = b + n2
        j = (bp2n * (bp2n + 1.0) * j + (z + bp2n + 1.0) * t) * v
        n2 += 2.0
        t *= t2
        cn /= n2 * (n2 + 1.0)
        c[n] = cn
        s, coef = 0.0, b - n
        for i in range(1, n):
            s += coef * c[i] * d[n - i]
            coef += b
        d[n] = bm1 * cn + s / n
        dj = d[n] * j
        total += dj
        if abs(dj) <= 15.0 * _EPS * total:
            break
    return u * total


def student_t_two_sided(t: float, df: int) -> float:
    """2·P(T ≥ |t|) for Student's t with df degrees of freedom, the regularized incomplete
    beta function I_x(df/2, 1/2) at x = df/(df + t²) (scipy.stats.ttest_rel's p-value is
    2·stdtr(df, −|t|), the same quantity).

    x and y = 1 − x are computed without cancellation (t²/df goes through log1p), and
    every prefactor x^a y^b / B(a, b) in logarithms. The method follows TOMS 708's choice
    for b = 1/2: for df < 30 the continued fraction (well conditioned there); from df = 30 on
    the power series where it converges fast (x ≤ 0.7; or y·df/2 ≤ 0.49, giving 1 − p)
    and the asymptotic expansion for large a elsewhere."""
    if math.isnan(t) or df < 1:
        return math.nan
    if math.isinf(t):
        return 0.0
    a, b = df / 2.0, 0.5
    u = (t * t) / df
    if u == 0.0:  # |t| below 1e-154: 1 − p is below 1e-154
        return 1.0
    if math.isinf(u):  # |t| past 1e154: x = df/t² to the last bit, 1 − x = 1
        log_x = math.log(df) - 2.0 * math.log(abs(t))
        x, y, log_y = math.exp(log_x), 1.0, 0.0
    else:
        log_x = -math.log1p(u)
        log_y = math.log(u) - math.log1p(u)
        x, y = 1.0 / (1.0 + u), u / (1.0 + u)
    log_beta = _LOG_SQRT_PI - _log_gamma_half_ratio(a)  # ln B(a, 1/2)
    if a < 15.0:
        front = math.exp(a * log_x + b * log_y - log_beta)
        if x < (a + 1.0) / (a + b + 2.0):
            return front * _beta_continued_fraction(a, b, x) / a
        return 1.0 - front * _beta_continued_fraction(b, a, y) / b
    if x <= 0.7:
        return _beta_power_series(a, b, x, a * log_x - math.log(a) - log_beta)
    if y < 0.1 and y * a <= 0.49:
        return 1.0 - _beta_power_series(b, a, y, b * log_y - math.log(b) - log_beta)
    return _beta_large_a_half(a, log_x)


def _student_t_log_pdf(s: float, df: int) -> float:
    a = df / 2.0
    return _log_gamma_half_ratio(a) - 0.5 * math.log(df * math.pi) - (a + 0.5) * math.log1p(s * s / df)


@functools.lru_cache(maxsize=1024)
def student_t_quantile(p: float, df: int) -> float:
    """The p-quantile of Student's t with df degrees of freedom (scipy.special.stdtrit),
    0 < p < 1: Newton's method on the logarithm of the tail probability, kept inside a
    bracket that bisection narrows whenever a step would leave it. Symmetric: the quantile
    of p > 1/2 is minus that of the exact complement 1 − p. Memoized: a call's intervals
    share few (p, df), and each costs tens of tail evaluations."""
    if not 0.0 < p < 1.0 or df < 1:
        return math.nan
    if p == 0.5:
        return 0.0
    if p > 0.5:
        return -student_t_quantile(1.0 - p, df)
    target = math.log(2.0 * p)  # the two-sided tail probability of the positive quantile s
    lo, hi = 0.0, math.inf
    s = max(-_normal_quantile_guess(p), 1e-300)
    if df <= 2:  # closed forms (Cauchy; df = 2), then one polishing step
        s = 1.0 / math.tan(math.pi * p) if df == 1 else math.sqrt(2.0 / (4.0 * p * (1.0 - p)) - 2.0)
    for _ in range(200):
        tail = student_t_two_sided(s, df)
        if tail <= 0.0:  # underflow: s is too far out
            hi = s
            s = (lo + hi) / 2.0
            continue
        gap = math.log(tail) - target
        if gap > 0.0:
            lo = max(lo, s)
        else:
            hi = min(hi, s)
        # d ln(tail)/ds = −2·pdf(s)/tail
        slope = -2.0 * math.exp(_student_t_log_pdf(s, df)) / tail
        following = s - gap / slope if slope != 0.0 else math.nan
        if not (lo < following < hi):  # also NaN: bisect, or walk out while there is no upper bound
            following = (lo + hi) / 2.0 if math.isfinite(hi) else max(2.0 * s, lo * 2.0)
        if abs(following - s) <= 2.0 * _EPS * abs(s) or following == s:
            s = following
            break
        s = following
    return -s


# ---- Wilcoxon's signed-rank statistic --------------------------------------------------

#: scipy.stats.wilcoxon's defaults, which evalcore follows.
WILCOXON_CONVENTION = ("scipy.stats.wilcoxon defaults: zero_method='wilcox' (zero differences are dropped before "
                       "ranking), correction=False, method='auto'; tied |differences| get average ranks; "
                       "exact null distribution when n <= 50 with no zeros and no ties, every sign pattern "
                       "(scipy's exact permutation test) when n <= 13 with zeros or ties, else the normal "
                       "approximation with the tie-corrected variance (n counts zeros for these choices)")


def _signed_rank_counts(weights: Sequence[int]) -> List[int]:
    """counts[s] = the number of sign patterns whose positive weights sum to s."""
    counts = [1] + [0] * sum(weights)
    top = 0
    for w in weights:
        top += w
        for s in range(top, w - 1, -1):
            counts[s] += counts[s - w]
    return counts


def wilcoxon_two_sided(n: int, zeros: int, r_plus2: int, tie_term: int, has_ties: bool,
                       ranks2: Sequence[int]) -> Tuple[float, str]:
    """The two-sided p-value of scipy.stats.wilcoxon(x, y) at its defaults, and the method
    it uses ('exact', 'permutation', 'asymptotic'; 'none' without differences).

    Args:
        n: the paired differences, zeros included.
        zeros: how many of them are 0.
        r_plus2: twice the sum of the (average) ranks of the positive differences among the
            nonzero |differences| (an integer, as tied ranks are halves).
        tie_term: Σ (t³ − t) over the groups of tied nonzero |differences|.
        has_ties: whether any two nonzero |differences| are equal.
        ranks2: twice the rank of each nonzero difference (needed when n <= 50).
    """
    if n == 0:
        return math.nan, "none"
    count = n - zeros
    if n <= 50 and not has_ties and zeros == 0:
        # Exact: the ranks are 1..n and r_plus is an integer; both tails summed exactly.
        counts = _signed_rank_counts(range(1, n + 1))
        k = r_plus2 // 2
        lower, upper = sum(counts[: k + 1]), sum(counts[k:])
        return min(1.0, 2 * min(lower, upper) / (1 << n)), "exact"
    if n <= 13:
        if n < 2:
            return math.nan, "none"  # one zero difference: scipy's permutation test refuses it
        # scipy enumerates all 2**n sign patterns (a zero's sign changes nothing); the
        # statistic is then exact in halves, so its tolerance never merges distinct values.
        counts = _signed_rank_counts(list(ranks2))
        lower, upper = sum(counts[: r_plus2 + 1]), sum(counts[r_plus2:])
        return min(1.0, 2 * min(lower, upper) / (1 << count)), "permutation"
    # The normal approximation, in scipy's order of operations.
    c = float(count)
    mean = c * (c + 1.0) * 0.25
    variance = c * (c + 1.0) * (2.0 * c + 1.0)
    se = math.sqrt((variance - float(tie_term) / 2) / 24)
    r_plus = r_plus2 / 2
    if se == 0.0:
        return math.nan, "asymptotic"  # nothing left to rank: scipy's 0/0
    return normal_two_sided((r_plus - mean) / se), "asymptotic"
