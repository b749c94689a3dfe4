package engine

// Features writes to dst (grown as needed) and returns the features of b
// from my side's view for w's schema: the vector X with
// w.Evaluate(b, my) = Σ_d w.Genes[d]·X[d], one entry per gene, in gene
// order. The road score is linear in the genes (Chen 2010 §3.3), so X
// holds road counts from the histograms N_my[n], N_en[n], n = 1..5:
//   - symmetric: X[n−1] = N_my[n] − N_en[n]                (Chen 2010 eq. 3.1)
//   - asymmetric: X[n−1] = N_my[n], X[4+n] = −N_en[n]        (Qi 2018 eq. 3-1)
//   - dual: the asymmetric features in the slots of the set w's judge picks
//     for this position (set 0 at 0..9, set 1 at 10..19), zeros in the other
//     set's slots and for the alert gene, which the score is not linear in
//     (Qi 2018 §3.2; see Weights.Evaluate).
//   - tempo: from the side to move's view X[n−1] = N_mover[n],
//     X[4+n] = −N_waiting[n], X[10] = −1 when the waiting side has one
//     threat, X[11] = −1 when it has two or more; negated when my is the
//     waiting side.
//   - cross: the tempo features and X[12] = X_mover, X[13] = −X_waiting
//     (Board.CrossPoints), negated when my is the waiting side.
//
// Texel tuning (chessprogramming wiki, "Texel's Tuning Method") fits the genes to game results through
// these features. w must be valid (NewWeights); my must be Black or White.
func Features(dst []float64, w Weights, b *Board, my Color) []float64 {
	n := len(w.Genes)
	if cap(dst) < n {
		dst = make([]float64, n)
	}
	dst = dst[:n]
	clear(dst)
	sign := 1.0
	if (n == 12 || n == 14) && my != b.ToMove() { // tempo, cross: the mover's view, negated
		my, sign = my.Opponent(), -1
	}
	hm, he := b.h[my&3], b.h[(3-my)&3]
	m1, m2, m3, m4, m5 := histFloats(hm)
	e1, e2, e3, e4, e5 := histFloats(he)
	my5 := [5]float64{m1, m2, m3, m4, m5}
	en5 := [5]float64{e1, e2, e3, e4, e5}
	switch n {
	case 5: // symmetric
		for i := range 5 {
			dst[i] = my5[i] - en5[i]
		}
	case 10, 21: // asymmetric, dual
		off := 0
		if n == 21 {
			g := (*[21]float64)(w.Genes)
			s0 := ((g[0]*m1 - g[5]*e1) + (g[1]*m2 - g[6]*e2)) + ((g[2]*m3 - g[7]*e3) + (g[3]*m4 - g[8]*e4)) + (g[4]*m5 - g[9]*e5)
			if dualAdvantage(s0, g[20]) {
				off = 10
			}
		}
		for i := range 5 {
			dst[off+i] = my5[i]
			dst[off+5+i] = -en5[i]
		}
	case 12, 14: // tempo, cross
		for i := range 5 {
			dst[i] = sign * my5[i]
			dst[5+i] = -sign * en5[i]
		}
		if t := b.Threats(my.Opponent()); t > 0 {
			dst[9+min(t, 2)] = -sign
		}
		if n == 14 {
			dst[12] = sign * float64(b.CrossPoints(my))
			dst[13] = -sign * float64(b.CrossPoints(my.Opponent()))
		}
	}
	return dst
}
