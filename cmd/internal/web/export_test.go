package web

// The tests of tuning runs' pages (tune_test.go) are the external package
// web_test, since they need package tuneweb, which imports web; these lend
// them web_test.go's helpers.
var (
	Serve     = serve
	Get       = get
	MustGet   = mustGet
	WantIn    = wantIn
	ReadEvent = readEvent
	ArenaDir  = arenaDir
)

// RunIDs are the IDs of s's runs in discovery order, after it looked for
// new ones.
func RunIDs(s *Server) []string {
	var ids []string
	for _, r := range s.list() {
		ids = append(ids, r.id)
	}
	return ids
}
