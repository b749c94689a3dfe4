// Package engine is roadtune's Connect6 engine: rules, the board with its
// incrementally maintained roads, the weight-vector schemas that score roads,
// weight files, move generation, alpha-beta search with a transposition table
// and the threat search (victory by continuous double threat).
//
// Sources: the rules and notation follow Wu & Huang 2005 and the Cloudict /
// ConnectMore protocol; roads, schemas and the search follow
// Chen 2010 §3.3, Zhou 2015 and Qi 2018 §§2.5, 3.1–3.2, 4.3–4.7.
// The package uses the standard library only.
package engine
