package cluster

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"

	"github.com/nats-io/nats.go"

	"github.com/roadtune/roadtune/internal/fileio"
)

// ServerTLS loads the certificate (PEM: the server's certificate first,
// then any intermediates) and its private key (PEM) that the embedded
// server presents to clients (ServerOptions.TLS): TLS 1.2 or later, no
// client certificates asked. The certificate must name the host or
// address workers connect to. Errors, each in one line naming the files:
// one file given without the other, an unreadable file, no PEM data, a
// key that does not match the certificate.
func ServerTLS(certFile, keyFile string) (*tls.Config, error) {
	if certFile == "" || keyFile == "" {
		return nil, errors.New("TLS needs both the server's certificate (-tls-cert FILE) and its private key (-tls-key FILE)")
	}
	certPEM, err := fileio.ReadFile(certFile, fileio.Secret)
	if err != nil {
		return nil, fmt.Errorf("TLS certificate: %w", err)
	}
	keyPEM, err := fileio.ReadFile(keyFile, fileio.Secret)
	if err != nil {
		return nil, fmt.Errorf("TLS key: %w", err)
	}
	cert, err := tls.X509KeyPair(certPEM, keyPEM)
	if err != nil {
		return nil, fmt.Errorf("TLS certificate %s with key %s: %v", certFile, keyFile, err)
	}
	return &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}, nil
}

// LoadCA reads the PEM certificates of the authorities a client trusts to
// have signed the server's certificate, in place of the system's roots
// (for a self-signed certificate: the certificate itself). Errors: an
// unreadable file, a file with no PEM certificate.
func LoadCA(file string) (*x509.CertPool, error) {
	data, err := fileio.ReadFile(file, fileio.Secret)
	if err != nil {
		return nil, fmt.Errorf("TLS CA file: %w", err)
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(data) {
		return nil, fmt.Errorf("TLS CA file %s holds no PEM certificate", file)
	}
	return pool, nil
}

// Secure is the Dial option that requires TLS of the server and checks
// its certificate against ca (nil: the system's roots). Without it a
// client still speaks TLS to a server that requires it, trusting the
// system's roots.
func Secure(ca *x509.CertPool) nats.Option {
	return nats.Secure(&tls.Config{RootCAs: ca, MinVersion: tls.VersionTLS12})
}

// tlsTrouble is Dial's one line for a failed TLS connection, "" when err
// is not about TLS.
func tlsTrouble(url string, err error) string {
	var unknown x509.UnknownAuthorityError
	var host x509.HostnameError
	switch {
	case errors.Is(err, nats.ErrSecureConnWanted):
		return fmt.Sprintf("NATS server %s does not offer TLS, which this client asks for (-tls-ca, or a tls:// URL)", url)
	case errors.As(err, &unknown):
		return fmt.Sprintf("TLS handshake with NATS server %s failed: its certificate is signed by an authority this machine does not trust; give its CA certificate with -tls-ca FILE", url)
	case errors.As(err, &host):
		return fmt.Sprintf("TLS handshake with NATS server %s failed: %v; connect to a name or address the certificate holds", url, &host)
	case errors.Is(err, nats.ErrTLS):
		return fmt.Sprintf("TLS handshake with NATS server %s failed: %v", url, err)
	}
	return ""
}
