/// The normal, Student-t and χ² distribution functions the comparisons need, built from libm's
/// `erf`/`erfc`/`lgamma`/`log1p`/`exp` and the incomplete beta and gamma functions of this folder.
///
/// Tails are computed directly (never as `1 − cdf`), so p-values down to the smallest doubles keep
/// their relative accuracy (1e-9 or better; see the tests against SciPy).
public enum Distributions {}
