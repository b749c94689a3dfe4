package losses

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
)

// causeOrder is the order of the causes in the tables.
var causeOrder = []string{CauseOpening, CauseQuiet, CauseMissed, CauseUnproved, CauseForfeit}

// Markdown returns the loss table: the losses by cause and colour, by the
// number of the losing move (with how many had a pair that held, and how
// many of those pairs were a threat of the loser's own), and one
// row per lost game (opening, colour, losing move, the winner's proved
// reply and its length, the pair that held and its rank among the root
// moves, the cause). A defence missed is split by that rank: among the
// root's Width best, or cut by the width.
func (r Report) Markdown() string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "Post-mortem of %s: %d games, %d lost. Proofs: threat search of %d attacker moves, %d positions; holding pairs: stones within %d points, %d moves, %d positions.\n\n",
		r.Player, r.Games, r.Lost, r.Bounds.ProveDepth, r.Bounds.ProveNodes, r.Bounds.Radius, r.Bounds.HoldDepth, r.Bounds.HoldNodes)
	sb.WriteString("| cause | as black | as white | all |\n|---|---|---|---|\n")
	row := func(name string, in func(Loss) bool) {
		var n [2]int // as black, as white
		for _, l := range r.Losses {
			if !in(l) {
				continue
			}
			if l.Colour == "black" {
				n[0]++
			} else {
				n[1]++
			}
		}
		fmt.Fprintf(&sb, "| %s | %d | %d | %d |\n", name, n[0], n[1], n[0]+n[1])
	}
	for _, c := range causeOrder {
		if !slices.ContainsFunc(r.Losses, func(l Loss) bool { return l.Cause == c }) {
			continue
		}
		row(c, func(l Loss) bool { return l.Cause == c })
		if c != CauseMissed {
			continue
		}
		missed := func(l Loss) bool { return l.Cause == CauseMissed }
		kept := func(l Loss) bool { return l.HoldRank > 0 && l.HoldRank <= r.Bounds.Width }
		row(fmt.Sprintf("… a pair among the root's %d best", r.Bounds.Width), func(l Loss) bool { return missed(l) && kept(l) })
		row(fmt.Sprintf("… a pair the width cut (rank > %d)", r.Bounds.Width), func(l Loss) bool { return missed(l) && !kept(l) })
		row("… a pair that is a threat of the loser's own", func(l Loss) bool { return missed(l) && l.HoldThreat })
	}
	byMove := map[int][3]int{}
	for _, l := range r.Losses {
		if l.LosingMove == 0 {
			continue
		}
		n := byMove[l.LosingMove]
		n[0]++
		if l.Hold != "" {
			n[1]++
		}
		if l.HoldThreat {
			n[2]++
		}
		byMove[l.LosingMove] = n
	}
	if len(byMove) > 0 {
		sb.WriteString("\n| losing move (the loser's, after the opening) | games | of which a pair held | of which by a threat |\n|---|---|---|---|\n")
		moves := make([]int, 0, len(byMove))
		for k := range byMove {
			moves = append(moves, k)
		}
		slices.Sort(moves)
		for _, k := range moves {
			fmt.Fprintf(&sb, "| %d | %d | %d | %d |\n", k, byMove[k][0], byMove[k][1], byMove[k][2])
		}
	}
	if len(r.Losses) == 0 {
		return sb.String()
	}
	sb.WriteString("\n| game | opening | colour | turns | losing move | played | winner's reply (plies) | pair that held (its rank among the root moves; pairs tried) | cause |\n|---|---|---|---|---|---|---|---|---|\n")
	rows := slices.Clone(r.Losses)
	slices.SortStableFunc(rows, func(a, b Loss) int { return cmp.Compare(a.Game, b.Game) })
	for _, l := range rows {
		move, reply, hold := "–", "–", "–"
		if l.LosingMove > 0 {
			move = fmt.Sprintf("%d (turn %d)", l.LosingMove, l.Turn+1)
			reply = fmt.Sprintf("%s (%d)", l.Win, l.WinPlies)
			hold = fmt.Sprintf("none (%d)", l.Pairs)
			switch {
			case l.Hold != "" && l.HoldRank > 0:
				hold = fmt.Sprintf("%s, rank %d", l.Hold, l.HoldRank)
			case l.Hold != "":
				hold = fmt.Sprintf("%s, not ranked", l.Hold)
			}
			if l.HoldThreat {
				hold += ", a threat"
			}
			hold += fmt.Sprintf(" (%d)", l.Pairs)
		}
		cause := l.Cause
		if cause == CauseForfeit {
			cause += " (" + l.Reason + ")"
		}
		fmt.Fprintf(&sb, "| %d | %s | %s | %d | %s | %s | %s | %s | %s |\n", l.Game, l.Opening, l.Colour, l.Turns, move, orDash(l.Played), reply, hold, cause)
	}
	return sb.String()
}

func orDash(s string) string {
	if s == "" {
		return "–"
	}
	return s
}
