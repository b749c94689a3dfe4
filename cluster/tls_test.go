package cluster

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/roadtune/roadtune/internal/tunetest"
)

// TestTLS: an embedded server with a certificate serves a worker that
// trusts its CA, which plays the in-process referee's games; the
// coordinator's in-process connection needs no TLS; a worker that does
// not trust the CA, and one that asks a plain server for TLS, get one
// clear line.
func TestTLS(t *testing.T) {
	files := tunetest.WriteTLSFiles(t)
	conf, err := ServerTLS(files.Cert, files.Key)
	if err != nil {
		t.Fatal(err)
	}
	ca, err := LoadCA(files.CA)
	if err != nil {
		t.Fatal(err)
	}
	srv, err := StartServer(ServerOptions{Listen: "127.0.0.1:0", StoreDir: t.TempDir(), TLS: conf})
	if err != nil {
		t.Fatal(err)
	}
	c := &testCluster{srv: srv}
	t.Cleanup(func() { c.wg.Wait(); srv.Shutdown() })
	if !strings.HasPrefix(srv.URL(), "tls://") {
		t.Errorf("URL %s, want tls://", srv.URL())
	}
	nc, err := srv.Connect("coordinator")
	if err != nil {
		t.Fatalf("in-process connection to a TLS server: %v", err)
	}
	t.Cleanup(nc.Close)
	c.coord = &Coordinator{Conn: nc, Run: t.Name(), Referee: testReferee(), BatchGames: 8}

	// Through a nats:// URL too: the server's INFO asks for TLS.
	plainURL := "nats://" + strings.TrimPrefix(srv.URL(), "tls://")
	for _, url := range []string{srv.URL(), plainURL} {
		_, err := Dial(url, "", "untrusting", nil)
		if err == nil || !strings.Contains(err.Error(), "TLS handshake with NATS server") || !strings.Contains(err.Error(), "-tls-ca") {
			t.Errorf("worker without the CA at %s: %v, want a failed TLS handshake naming -tls-ca", url, err)
		}
	}
	wc, err := Dial(plainURL, "", "trusting", nil, Secure(ca))
	if err != nil {
		t.Fatalf("worker with the CA: %v", err)
	}
	t.Cleanup(wc.Close)
	if !wc.TLSRequired() {
		t.Error("the worker's connection is not TLS")
	}
	c.worker(t, &Worker{Conn: wc, Name: "trusting", Concurrency: 1})
	matches := testMatches(t)
	want, _ := inProcess(t, 6, matches)
	got, err := c.coord.Play(context.Background(), 6, matches)
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("through TLS: %v (%v), in-process %v", got, err, want)
	}

	plain, err := StartServer(ServerOptions{Listen: "127.0.0.1:0", StoreDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer plain.Shutdown()
	if _, err := Dial(plain.URL(), "", "w", nil, Secure(ca)); err == nil || !strings.Contains(err.Error(), "does not offer TLS") {
		t.Errorf("TLS asked of a plain server: %v", err)
	}
}

// TestTLSFilesRefused: a missing, mismatched or non-PEM certificate, key
// or CA file is one clear error naming it.
func TestTLSFilesRefused(t *testing.T) {
	files := tunetest.WriteTLSFiles(t)
	for _, c := range []struct {
		cert, key, want string
	}{
		{files.Cert, "", "both"},
		{"", files.Key, "both"},
		{files.Cert + ".missing", files.Key, "no such file"},
		{files.Cert, files.OtherKey, "private key does not match public key"},
		{files.Key, files.Cert, "TLS certificate " + files.Key},
	} {
		_, err := ServerTLS(c.cert, c.key)
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("ServerTLS(%q, %q): %v, want one line with %q", c.cert, c.key, err, c.want)
		}
	}
	if _, err := LoadCA(files.CA + ".missing"); err == nil || !strings.Contains(err.Error(), "no such file") {
		t.Errorf("missing CA file: %v", err)
	}
	if _, err := LoadCA(files.Key); err == nil || !strings.Contains(err.Error(), "no PEM certificate") {
		t.Errorf("a key as CA file: %v", err)
	}
}
