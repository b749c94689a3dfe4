package cluster

import (
	"crypto/x509"
	"flag"
	"fmt"
	"io"
	"time"
)

// Flags are the command-line flags of a program whose games can be
// played on workers (tune, arena): where the games go, the credentials,
// TLS, and whether the program plays batches itself. Register adds them
// to a flag set; Session turns them into a Session.
type Flags struct {
	Listen, URL, TokenFile string
	TLSCert, TLSKey, TLSCA string
	LocalWorker            bool
	// AckWait is the workers' consumer's ack wait (Coordinator.AckWait):
	// at least a second.
	AckWait time.Duration
	// VerifySample is the share of batches the coordinator replays to
	// verify the workers (Coordinator.VerifySample), from 0 (none beyond
	// each worker's first results) to 1.
	VerifySample float64
}

// FlagNames are the flags Register adds.
var FlagNames = []string{"listen", "nats", "token-file", "local-worker", "tls-cert", "tls-key", "tls-ca", "ack-wait", "verify-sample"}

// Register adds the flags to fs; what names the games in the help texts
// (e.g. "the games", "the match's games").
func (f *Flags) Register(fs *flag.FlagSet, what string) {
	fs.StringVar(&f.Listen, "listen", "", "play "+what+" on workers (tune worker) through an embedded NATS server listening on `HOST:PORT` (port 0: any); a non-loopback host needs a token")
	fs.StringVar(&f.URL, "nats", "", "play "+what+" on workers (tune worker) through the NATS server at `URL` (e.g. nats://host:4222)")
	fs.StringVar(&f.TokenFile, "token-file", "", "with -listen or -nats: the token workers present, read from `FILE` (default $"+TokenEnv+")")
	fs.BoolVar(&f.LocalWorker, "local-worker", true, "with -listen or -nats: also play batches in this process")
	fs.StringVar(&f.TLSCert, "tls-cert", "", "with -listen: the server's TLS certificate, PEM `FILE` (with -tls-key); workers must then connect with TLS")
	fs.StringVar(&f.TLSKey, "tls-key", "", "with -listen: the private key of -tls-cert, PEM `FILE`")
	fs.StringVar(&f.TLSCA, "tls-ca", "", "with -nats: require TLS and trust the CA certificate(s) in PEM `FILE` (default: the system's roots)")
	fs.Float64Var(&f.VerifySample, "verify-sample", DefaultVerifySample, "with -listen or -nats: the share of batches (0 to 1) replayed in this process to verify the workers' results, besides each worker's results until one is verified; a worker whose result differs is quarantined (timed games are only checked, never replayed)")
	fs.DurationVar(&f.AckWait, "ack-wait", 30*time.Second, "with -listen or -nats: how long a worker may hold a batch without news before it goes to another worker (at least 1s; workers report every third of it while they play)")
}

// FlagError is a bad flag value (a usage error: exit status 2).
type FlagError struct{ Err error }

func (e *FlagError) Error() string { return e.Err.Error() }
func (e *FlagError) Unwrap() error { return e.Err }

// Session checks the flags and returns the session (nil, nil without
// -listen or -nats) before anything is written: log receives its lines
// prefixed with program, workers (may be nil) the live view. With -nats
// it connects. Errors: a *FlagError for a bad flag (an ack wait under a
// second, a verify sample outside [0, 1], unreadable token, TLS or CA file, bad address, a non-loopback
// -listen without a token, conflicting flags); Dial's errors for a server
// that cannot be reached.
func (f *Flags) Session(log io.Writer, program string, workers func(Snapshot)) (*Session, error) {
	if f.AckWait != 0 && f.AckWait < time.Second {
		return nil, &FlagError{fmt.Errorf("flag -ack-wait %v: want at least 1s (workers report progress every third of it), e.g. 30s", f.AckWait)}
	}
	if f.VerifySample < 0 || f.VerifySample > 1 {
		return nil, &FlagError{fmt.Errorf("flag -verify-sample %v: want a share from 0 to 1, e.g. %v", f.VerifySample, DefaultVerifySample)}
	}
	if f.Listen == "" && f.URL == "" {
		return nil, nil
	}
	token, err := ReadToken(f.TokenFile)
	if err != nil {
		return nil, &FlagError{err}
	}
	o := SessionOptions{Listen: f.Listen, URL: f.URL, Token: token, LocalWorker: f.LocalWorker, Log: log, Program: program, Workers: workers}
	if f.TLSCert != "" || f.TLSKey != "" {
		if o.TLS, err = ServerTLS(f.TLSCert, f.TLSKey); err != nil {
			return nil, &FlagError{err}
		}
	}
	if f.TLSCA != "" {
		if o.CA, err = LoadCA(f.TLSCA); err != nil {
			return nil, &FlagError{err}
		}
	}
	if err := o.Check(); err != nil {
		return nil, &FlagError{err}
	}
	s, err := NewSession(o)
	if err != nil {
		return nil, err
	}
	s.Referee().AckWait = f.AckWait
	s.Referee().VerifySample = f.VerifySample
	if f.VerifySample == 0 {
		s.Referee().VerifySample = -1 // none sampled
	}
	return s, nil
}

// ReadCA is the pool of a -tls-ca file, nil for "".
func ReadCA(file string) (*x509.CertPool, error) {
	if file == "" {
		return nil, nil
	}
	return LoadCA(file)
}
