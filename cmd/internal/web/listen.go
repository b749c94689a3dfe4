package web

import (
	"fmt"
	"io"
	"net"
	"strings"
)

// Listen opens a TCP listener for the pages on addr ("HOST:PORT" or
// ":PORT") and returns it with the URL to open ("http://127.0.0.1:8080/").
// An empty host binds the loopback address 127.0.0.1 only. Any other host
// is bound as typed; when it is not a loopback address (0.0.0.0, a LAN
// address, a host name) a warning line goes to stderr: the pages have no
// authentication, anyone who can reach the address can read the runs (they
// are read-only). Errors: an address without a port or with a bad one, and
// the listener's own (port in use, host not local), naming the address.
func Listen(addr string, stderr io.Writer) (net.Listener, string, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, "", fmt.Errorf("-http %q: want HOST:PORT or :PORT, e.g. 127.0.0.1:8080 or :8080 (%v)", addr, err)
	}
	if port == "" {
		return nil, "", fmt.Errorf("-http %q: no port (want e.g. :8080, or :0 for any free port)", addr)
	}
	if host == "" {
		host = "127.0.0.1"
	}
	ln, err := net.Listen("tcp", net.JoinHostPort(host, port))
	if err != nil {
		return nil, "", fmt.Errorf("-http %q: %w", addr, err)
	}
	// The address as the user gave it, with the port bound (for ":0"):
	// a wildcard host stays "0.0.0.0", not the listener's "[::]".
	_, bound, _ := net.SplitHostPort(ln.Addr().String())
	given := net.JoinHostPort(host, bound)
	if !loopback(host) {
		fmt.Fprintf(stderr, "warning: serving the run pages on %s, beyond this machine: they have no authentication, so anyone who can reach the address can read the runs (the pages are read-only)\n", given)
	}
	return ln, "http://" + given + "/", nil
}

// loopback reports whether host names this machine only.
func loopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(strings.Trim(host, "[]"))
	return ip != nil && ip.IsLoopback()
}
