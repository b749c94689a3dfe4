package cmaes

import (
	"math"
	"slices"
	"sort"
)

// RankChange is the rank-change measure s of Hansen et al. 2009 (the
// uncertainty measurement of UH-CMA-ES, as pycma's
// NoiseHandler.update_measure computes it, without cumulation): old holds
// the λ candidates' first values, re holds the second values of the
// first len(re) candidates (1 ≤ len(re) ≤ λ, λ ≥ 2). With L^old = old and
// L^new = old with re in its first places, ranked together (2λ values,
// mid-ranks for ties), for each re-evaluated candidate i
//
//	Δ_i = |rank(L^new_i) − rank(L^old_i)| − 1 (0 when the values are equal),
//	s_i = 2Δ_i − Δlim(R^new_i) − Δlim(R^old_i),
//
// with R_i the (mid-)rank of L_i among the 2λ − 1 values other than its
// partner, Δlim(R) the 100·θ/2 percentile (Prctile) of
// {|1 − R|, …, |2λ − 1 − R|}, and s the mean of the s_i. It returns s and
// the s_i. The direction of the ranking does not matter: s is the same
// for the values negated. See the package doc for ties.
func RankChange(old, re []float64, theta float64) (s float64, each []float64) {
	lambda := len(old)
	if len(re) == 0 || len(re) > lambda || lambda < 2 {
		return 0, nil
	}
	joint := make([]float64, 2*lambda)
	copy(joint, old)
	copy(joint[lambda:], old)
	copy(joint[lambda:], re)
	rank := midRanks(joint)
	r := make([]float64, 2*lambda-1)
	limit := func(R float64) float64 {
		for j := range r {
			r[j] = math.Abs(float64(j+1) - R)
		}
		return Prctile(r, 50*theta)
	}
	// others is v's mid-rank among the joint values less its partner p.
	others := func(rv, v, p float64) float64 {
		switch {
		case p < v:
			return rv - 1
		case p == v:
			return rv - 0.5
		}
		return rv
	}
	each = make([]float64, len(re))
	for i := range re {
		a, b := joint[i], joint[lambda+i]
		ra, rb := rank[i], rank[lambda+i]
		delta := 0.0
		if a != b {
			delta = math.Abs(rb-ra) - 1
		}
		each[i] = 2*delta - limit(others(rb, b, a)) - limit(others(ra, a, b))
		s += each[i]
	}
	return s / float64(len(re)), each
}

// midRanks returns the ranks (from 1, ascending) of v, equal values
// sharing the mean of their ranks.
func midRanks(v []float64) []float64 {
	idx := make([]int, len(v))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return v[idx[a]] < v[idx[b]] })
	rank := make([]float64, len(v))
	for lo := 0; lo < len(idx); {
		hi := lo + 1
		for hi < len(idx) && v[idx[hi]] == v[idx[lo]] {
			hi++
		}
		mid := float64(lo+1+hi) / 2 // mean of ranks lo+1 … hi
		for _, i := range idx[lo:hi] {
			rank[i] = mid
		}
		lo = hi
	}
	return rank
}

// Prctile is the p-th percentile (p in [0, 100]) of data as Hansen's
// prctile (pycma's Mh.prctile) takes it: with the N values sorted, the
// value at position f = p·N/100 − 0.5 (from 0), interpolated linearly
// between neighbours, the smallest value for f ≤ 0 and the largest for
// f ≥ N − 1. data is not changed; 0 for no data.
func Prctile(data []float64, p float64) float64 {
	n := len(data)
	if n == 0 {
		return 0
	}
	d := slices.Clone(data)
	slices.Sort(d)
	f := p*float64(n)/100 - 0.5
	switch {
	case f <= 0:
		return d[0]
	case f >= float64(n-1):
		return d[n-1]
	}
	i := int(f)
	return (float64(i+1)-f)*d[i] + (f-float64(i))*d[i+1]
}
