// Package losses is the post-mortem of a match: for each game a player
// lost, the first of its moves after which the winner had a forced win
// (proved by the engine's threat search, engine.Engine.ProveWin), whether
// a pair of stones held at that point, and so the cause: the opening
// already lost, a quiet attack before the losing move, a defence missed,
// no win proved, or a forfeit. `arena losses` prints its tables; the
// experiments use them to say where an engine loses before changing its
// search.
package losses
