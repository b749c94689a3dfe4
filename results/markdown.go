package results

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// MarkdownTable formats a GitHub-flavoured Markdown table for report.md, padded
// so that the source reads as a table too. Rows shorter than the widest row or
// the header are padded with empty cells. A column whose non-empty body cells
// are all numbers (optionally signed, with a trailing "%", or "±"/"+-" parts,
// e.g. "+12.3 ± 4.5") is right-aligned. Pipes in cells are escaped and line
// breaks become spaces. An empty header and no rows give "".
func MarkdownTable(header []string, rows [][]string) string {
	ncol := len(header)
	for _, r := range rows {
		ncol = max(ncol, len(r))
	}
	if ncol == 0 {
		return ""
	}
	cell := func(r []string, j int) string {
		if j >= len(r) {
			return ""
		}
		s := strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ", "|", `\|`).Replace(r[j])
		return strings.TrimSpace(s)
	}

	width := make([]int, ncol)
	numeric := make([]bool, ncol)
	for j := range ncol {
		width[j] = max(3, utf8.RuneCountInString(cell(header, j)))
		numeric[j] = false
		seen := false
		all := true
		for _, r := range rows {
			c := cell(r, j)
			width[j] = max(width[j], utf8.RuneCountInString(c))
			if c == "" {
				continue
			}
			seen = true
			all = all && isNumberCell(c)
		}
		numeric[j] = seen && all
	}

	var b strings.Builder
	line := func(cells func(j int) string) {
		b.WriteByte('|')
		for j := range ncol {
			c := cells(j)
			pad := strings.Repeat(" ", width[j]-utf8.RuneCountInString(c))
			b.WriteByte(' ')
			if numeric[j] {
				b.WriteString(pad + c)
			} else {
				b.WriteString(c + pad)
			}
			b.WriteString(" |")
		}
		b.WriteByte('\n')
	}
	line(func(j int) string { return cell(header, j) })
	line(func(j int) string {
		if numeric[j] {
			return strings.Repeat("-", width[j]-1) + ":"
		}
		return strings.Repeat("-", width[j])
	})
	for _, r := range rows {
		line(func(j int) string { return cell(r, j) })
	}
	return b.String()
}

// isNumberCell reports whether s reads as a number, possibly with a unit-free
// "%" suffix and a "±" (or "+-") margin, such as "-3", "62.5%", "+41.2 ± 18.0".
func isNumberCell(s string) bool {
	s = strings.ReplaceAll(s, "+-", "±")
	for _, part := range strings.Split(s, "±") {
		part = strings.TrimSpace(part)
		part = strings.TrimSuffix(part, "%")
		if _, err := strconv.ParseFloat(part, 64); err != nil {
			return false
		}
	}
	return true
}
