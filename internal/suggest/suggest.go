package suggest

import (
	"fmt"
	"slices"
)

// Suggest returns the candidate nearest to word when it is near enough to
// be a misspelling of it (an edit distance, adjacent swaps counted once, of
// 1 for words of 3-4 letters, 2 for longer ones), the first of equals in
// candidates' order; "" when none is, or when word is a candidate.
func Suggest(word string, candidates []string) string {
	limit := 2
	switch {
	case len(word) < 3:
		return ""
	case len(word) < 5:
		limit = 1
	}
	if slices.Contains(candidates, word) {
		return ""
	}
	best, bestD := "", limit+1
	for _, c := range candidates {
		if d := distance(word, c); d < bestD {
			best, bestD = c, d
		}
	}
	return best
}

// DidYouMean is Suggest's hint as a suffix: ` (did you mean "x"?)`, or "".
func DidYouMean(word string, candidates []string) string {
	if s := Suggest(word, candidates); s != "" {
		return fmt.Sprintf(" (did you mean %q?)", s)
	}
	return ""
}

// distance is the optimal string alignment distance of a and b (bytes):
// insertions, deletions, substitutions and swaps of adjacent letters.
func distance(a, b string) int {
	d := make([][]int, len(a)+1)
	for i := range d {
		d[i] = make([]int, len(b)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(a)][len(b)]
}
