package cluster

import (
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"

	"github.com/roadtune/roadtune/internal/fileio"
)

// TokenEnv is the environment variable that holds the token when no token
// file is given.
const TokenEnv = "ROADTUNE_NATS_TOKEN"

// ReadToken returns the shared secret clients present to the server: the
// contents of file (surrounding white space trimmed) when file is not
// empty, else $ROADTUNE_NATS_TOKEN, else "" (no credentials). A token is
// never taken from the command line, where it would land in the shell's
// history and the process list. Errors: an unreadable or empty file.
func ReadToken(file string) (string, error) {
	if file == "" {
		return strings.TrimSpace(os.Getenv(TokenEnv)), nil
	}
	data, err := fileio.ReadFile(file, fileio.Secret)
	if err != nil {
		return "", fmt.Errorf("token file: %w", err)
	}
	tok := strings.TrimSpace(string(data))
	if tok == "" {
		return "", fmt.Errorf("token file %s is empty", file)
	}
	return tok, nil
}

// ServerOptions configure the embedded NATS server.
type ServerOptions struct {
	// Listen is host:port for clients (workers on other machines); port 0
	// picks a free one. A host that is not loopback (127.0.0.0/8, ::1,
	// localhost), the empty host included, requires Token.
	Listen string
	// StoreDir holds JetStream's files (the queue of batches and the
	// results); inside the run directory.
	StoreDir string
	// Token, when set, is required of every client.
	Token string
	// MaxPayload is the largest message in bytes (default 8 MiB: a
	// batch's compressed positions).
	MaxPayload int32
	// TLS, when set (ServerTLS), is required of every client connecting
	// over the network; connections inside this process (Connect) do
	// without.
	TLS *tls.Config
}

// Server is a NATS server with JetStream running inside this process.
type Server struct {
	ns    *server.Server
	token string
}

// StartServer starts an embedded NATS server with JetStream and waits
// until it accepts connections. Errors: a bad Listen address, a
// non-loopback Listen without a token, a port in use, JetStream storage
// that cannot be created.
func StartServer(o ServerOptions) (*Server, error) {
	host, portText, err := net.SplitHostPort(o.Listen)
	if err != nil {
		return nil, fmt.Errorf("listen address %q: want HOST:PORT, e.g. 127.0.0.1:4222", o.Listen)
	}
	port, err := strconv.Atoi(portText)
	if err != nil || port < 0 || port > 65535 {
		return nil, fmt.Errorf("listen address %q: bad port %q", o.Listen, portText)
	}
	if !Loopback(host) && o.Token == "" {
		return nil, fmt.Errorf("listen address %q is reachable from other machines: give a token (a file named by -token-file, or $%s) that workers present, or listen on 127.0.0.1", o.Listen, TokenEnv)
	}
	if o.StoreDir == "" {
		return nil, errors.New("embedded NATS server: no JetStream storage directory")
	}
	if port == 0 {
		port = -1 // the server's "any free port"
	}
	if host == "" {
		host = "0.0.0.0"
	}
	opts := &server.Options{
		ServerName:    "roadtune",
		Host:          host,
		Port:          port,
		JetStream:     true,
		StoreDir:      o.StoreDir,
		MaxPayload:    o.MaxPayload,
		Authorization: o.Token,
		NoSigs:        true,
		NoLog:         true,
	}
	if o.TLS != nil {
		opts.TLS, opts.TLSConfig, opts.TLSTimeout = true, o.TLS, server.TLS_TIMEOUT.Seconds()
	}
	if opts.MaxPayload == 0 {
		opts.MaxPayload = 8 << 20
	}
	ns, err := server.NewServer(opts)
	if err != nil {
		return nil, fmt.Errorf("embedded NATS server: %w", err)
	}
	ns.Start()
	if !ns.ReadyForConnections(10 * time.Second) {
		ns.Shutdown()
		return nil, fmt.Errorf("embedded NATS server on %s did not start (port in use?)", o.Listen)
	}
	return &Server{ns: ns, token: o.Token}, nil
}

// URL is the address workers connect to (nats://host:port).
func (s *Server) URL() string { return s.ns.ClientURL() }

// Connect opens a connection to the server inside this process (no TCP).
func (s *Server) Connect(name string) (*nats.Conn, error) {
	opts := []nats.Option{nats.Name(name), nats.InProcessServer(s.ns)}
	if s.token != "" {
		opts = append(opts, nats.Token(s.token))
	}
	return nats.Connect("", opts...)
}

// Shutdown stops the server; its JetStream files stay in StoreDir.
func (s *Server) Shutdown() {
	s.ns.Shutdown()
	s.ns.WaitForShutdown()
}

// Loopback reports whether host names this machine only: localhost or a
// loopback IP address. The empty host (every interface) is not.
func Loopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(strings.Trim(host, "[]"))
	return ip != nil && ip.IsLoopback()
}

// Dial connects to the NATS server at url (e.g. nats://host:4222, or
// tls://host:4222 to require TLS) with the token ("" for none), as name,
// and the extra options (e.g. Secure). After a network break it
// reconnects for ever, every second, writing a line to log (when not nil)
// on each disconnection and reconnection. A server that requires TLS gets
// it, its certificate checked against the system's roots unless Secure
// names a CA. Errors: a bad URL, a refused connection, a wrong token, a
// failed TLS handshake — each said in one line.
func Dial(url, token, name string, log io.Writer, extra ...nats.Option) (*nats.Conn, error) {
	say := func(format string, args ...any) {
		if log != nil {
			fmt.Fprintf(log, format+"\n", args...)
		}
	}
	opts := []nats.Option{
		nats.Name(name),
		nats.Timeout(5 * time.Second),
		nats.MaxReconnects(-1),
		nats.ReconnectWait(time.Second),
		nats.DisconnectErrHandler(func(nc *nats.Conn, err error) {
			if err != nil {
				say("disconnected from %s: %v; reconnecting", url, err)
			}
		}),
		nats.ReconnectHandler(func(*nats.Conn) { say("reconnected to %s", url) }),
	}
	if token != "" {
		opts = append(opts, nats.Token(token))
	}
	nc, err := nats.Connect(url, append(opts, extra...)...)
	if line := tlsTrouble(url, err); line != "" {
		return nil, errors.New(line)
	}
	switch {
	case err == nil:
		return nc, nil
	case errors.Is(err, nats.ErrAuthorization):
		return nil, fmt.Errorf("NATS server %s refused the credentials (wrong or missing token: -token-file or $%s)", url, TokenEnv)
	case errors.Is(err, nats.ErrNoServers):
		return nil, fmt.Errorf("no NATS server answers at %s (is the coordinator running and reachable?)", url)
	}
	return nil, fmt.Errorf("NATS server %s: %w", url, err)
}
