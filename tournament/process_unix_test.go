//go:build unix

package tournament

import (
	"context"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// TestProcessAlone drives process supervision without the protocol: a
// shell that writes two lines, leaves a child behind and waits. The parse
// function sees every line, only the lines it keeps arrive as events, the
// standard error reaches its writer, and end kills the whole group.
func TestProcessAlone(t *testing.T) {
	t.Parallel()
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh:", err)
	}
	var seen []string
	keep := func(text string) (outEvent, bool) {
		seen = append(seen, text)
		return outEvent{kind: lineName, text: text}, strings.HasPrefix(text, "keep")
	}
	stderr := &tailBuffer{max: 64}
	pr, err := startProcess([]string{sh, "-c", "echo oops >&2; echo skip; echo keep me; sleep 60 & sleep 60"}, "", "sh", nil, stderr, keep)
	if err != nil {
		t.Fatal(err)
	}
	timer := time.NewTimer(5 * time.Second)
	defer timer.Stop()
	ev, res := pr.next(context.Background(), timer.C)
	if res != gotEvent || ev.text != "keep me" {
		t.Errorf("first event %+v (%d), want the kept line", ev, res)
	}
	pr.end(nil, 0)
	if !pr.exited() || !strings.Contains(pr.status(), "killed by signal 9") {
		t.Errorf("after end: exited %v, %s", pr.exited(), pr.status())
	}
	if strings.Join(seen, "|") != "skip|keep me" {
		t.Errorf("parse saw %q", seen)
	}
	if got := stderr.String(); got != "oops\n" {
		t.Errorf("stderr %q", got)
	}
	checkGroupsGone(t, []int{pr.pid})
}
