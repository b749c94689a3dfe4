package stats

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// DefaultErrorRate is the SPRT's α and β when a field is left zero.
const DefaultErrorRate = 0.05

// MaxElo bounds an SPRT's Elo0 and Elo1 in magnitude: beyond about 6,400
// logistic Elo the expected score rounds to 1 and no LLR can be computed
// (Test failed on every count of an -sprt 0,1e10 that parsed).
const MaxElo = 4000

// SPRT is a generalised sequential probability ratio test of H0: Elo = Elo0
// against H1: Elo = Elo1 with type I error Alpha and type II error Beta
// (fishtest stat_util.SPRT/update_SPRT; statistics.md "SPRT"). Elo0 and Elo1
// are logistic Elo, or normalised Elo when Normalized is set. Alpha and Beta
// default to 0.05 when zero.
type SPRT struct {
	Elo0, Elo1  float64
	Alpha, Beta float64
	Normalized  bool
}

// withDefaults fills zero error rates with DefaultErrorRate.
func (s SPRT) withDefaults() SPRT {
	s.Alpha = cmp.Or(s.Alpha, DefaultErrorRate)
	s.Beta = cmp.Or(s.Beta, DefaultErrorRate)
	return s
}

// Validate reports whether the test is well posed: finite Elo0 < Elo1,
// both at most MaxElo in magnitude, and, after defaults, Alpha and Beta in
// (0, 1) with Alpha + Beta < 1 (so the lower bound lies below the upper).
func (s SPRT) Validate() error {
	if msg := s.problem(); msg != "" {
		return errors.New("SPRT " + msg)
	}
	return nil
}

// problem is what is wrong with s in words a user reads after the value
// ("elo0 (20) must be less than elo1 (0)"), "" when nothing is.
func (s SPRT) problem() string {
	s = s.withDefaults()
	switch {
	case math.IsNaN(s.Elo0) || math.IsInf(s.Elo0, 0) || math.IsNaN(s.Elo1) || math.IsInf(s.Elo1, 0):
		return fmt.Sprintf("elo0 (%g) and elo1 (%g) must be finite numbers", s.Elo0, s.Elo1)
	case !(s.Elo0 < s.Elo1):
		return fmt.Sprintf("elo0 (%g) must be less than elo1 (%g)", s.Elo0, s.Elo1)
	case math.Abs(s.Elo0) > MaxElo || math.Abs(s.Elo1) > MaxElo:
		return fmt.Sprintf("elo0 (%g) and elo1 (%g) must lie within ±%d", s.Elo0, s.Elo1, MaxElo)
	case !(s.Alpha > 0 && s.Alpha < 1):
		return fmt.Sprintf("alpha (%g) must be in (0, 1)", s.Alpha)
	case !(s.Beta > 0 && s.Beta < 1):
		return fmt.Sprintf("beta (%g) must be in (0, 1)", s.Beta)
	case !(s.Alpha+s.Beta < 1):
		return fmt.Sprintf("alpha (%g) + beta (%g) must be below 1", s.Alpha, s.Beta)
	}
	return ""
}

// Bounds returns the LLR stopping bounds lower = ln(β/(1−α)) and
// upper = ln((1−β)/α) (Wald 1945; fishtest stat_util.SPRT), ±2.944 for
// α = β = 0.05.
func (s SPRT) Bounds() (lower, upper float64) {
	s = s.withDefaults()
	return math.Log(s.Beta / (1 - s.Alpha)), math.Log((1 - s.Beta) / s.Alpha)
}

// Decision is the state of an SPRT after some results.
type Decision int

const (
	Continue Decision = iota // the LLR lies within the bounds: play on
	AcceptH0                 // the LLR fell below the lower bound: Elo = Elo0 (reject the change)
	AcceptH1                 // the LLR rose above the upper bound: Elo = Elo1 (accept the change)
)

// String returns "continue", "H0" or "H1".
func (d Decision) String() string {
	switch d {
	case Continue:
		return "continue"
	case AcceptH0:
		return "H0"
	case AcceptH1:
		return "H1"
	}
	return "Decision(" + strconv.Itoa(int(d)) + ")"
}

// Test returns the log-likelihood ratio of the counts (LLRLogistic, or
// LLRNormalized when s.Normalized) and the decision: AcceptH0 when
// llr < lower, AcceptH1 when llr > upper, Continue otherwise (fishtest
// update_SPRT without its overshoot correction). Counts are trinomial
// [L, D, W] or pentanomial [LL, LD, WL+DD, WD, WW]; all-zero counts give
// llr 0 and Continue. It returns an error if s fails Validate or the counts
// are malformed.
func (s SPRT) Test(counts []int) (llr float64, d Decision, err error) {
	if err := s.Validate(); err != nil {
		return 0, Continue, err
	}
	if s.Normalized {
		llr, err = LLRNormalized(counts, s.Elo0, s.Elo1)
	} else {
		llr, err = LLRLogistic(counts, s.Elo0, s.Elo1)
	}
	if err != nil {
		return 0, Continue, err
	}
	lower, upper := s.Bounds()
	switch {
	case llr < lower:
		d = AcceptH0
	case llr > upper:
		d = AcceptH1
	}
	return llr, d, nil
}

// String formats the test as the arena flag spells it plus its model, e.g.
// "elo0=0 elo1=5 alpha=0.05 beta=0.05 logistic".
func (s SPRT) String() string {
	s = s.withDefaults()
	model := "logistic"
	if s.Normalized {
		model = "normalized"
	}
	return fmt.Sprintf("elo0=%g elo1=%g alpha=%g beta=%g %s", s.Elo0, s.Elo1, s.Alpha, s.Beta, model)
}

// ParseSPRT parses the arena flag -sprt: "elo0,elo1" or
// "elo0,elo1,alpha,beta", comma-separated numbers with optional spaces, Elo
// logistic (set Normalized on the result for normalised Elo). Omitted α and
// β are 0.05. Errors quote s, name the offending field and say what is
// wrong, without a package prefix (the caller names the flag or key:
// `"20,0": elo0 (20) must be less than elo1 (0)`); the result also passes
// Validate.
func ParseSPRT(s string) (SPRT, error) {
	fields := strings.Split(s, ",")
	if len(fields) != 2 && len(fields) != 4 {
		return SPRT{}, fmt.Errorf("%q: %d comma-separated fields, want 2 (elo0,elo1) or 4 (elo0,elo1,alpha,beta)", s, len(fields))
	}
	names := [4]string{"elo0", "elo1", "alpha", "beta"}
	var v [4]float64
	for i, f := range fields {
		f = strings.TrimSpace(f)
		if f == "" {
			return SPRT{}, fmt.Errorf("%q: field %d (%s) is empty", s, i+1, names[i])
		}
		x, err := strconv.ParseFloat(f, 64)
		if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
			return SPRT{}, fmt.Errorf("%q: field %d (%s) %q is not a finite number", s, i+1, names[i], f)
		}
		v[i] = x
	}
	t := SPRT{Elo0: v[0], Elo1: v[1], Alpha: DefaultErrorRate, Beta: DefaultErrorRate}
	if len(fields) == 4 {
		if !(v[2] > 0 && v[2] < 1) {
			return SPRT{}, fmt.Errorf("%q: field 3 (alpha) %g must be in (0, 1)", s, v[2])
		}
		if !(v[3] > 0 && v[3] < 1) {
			return SPRT{}, fmt.Errorf("%q: field 4 (beta) %g must be in (0, 1)", s, v[3])
		}
		t.Alpha, t.Beta = v[2], v[3]
	}
	if msg := t.problem(); msg != "" {
		return SPRT{}, fmt.Errorf("%q: %s", s, msg)
	}
	return t, nil
}
