package remote_test

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"math/big"
	"net"
	"testing"
	"time"

	"github.com/nats-io/jwt/v2"
	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nkeys"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/remote"
)

// selfSigned returns a TLS certificate for 127.0.0.1 and a pool trusting
// it.
func selfSigned(t *testing.T) (tls.Certificate, *x509.CertPool) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "troupe test"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1)}, KeyUsage: x509.KeyUsageDigitalSignature,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	leaf, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	pool := x509.NewCertPool()
	pool.AddCert(leaf)
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key, Leaf: leaf}, pool
}

// externalServer starts a stand-alone nats-server on loopback with opts
// edited by edit, and returns its URL.
func externalServer(t *testing.T, edit func(*server.Options)) string {
	t.Helper()
	o := &server.Options{Host: "127.0.0.1", Port: server.RANDOM_PORT, NoLog: true, NoSigs: true}
	edit(o)
	s, err := server.NewServer(o)
	if err != nil {
		t.Fatal(err)
	}
	s.Start()
	t.Cleanup(func() { s.Shutdown(); s.WaitForShutdown() })
	if !s.ReadyForConnections(waitLimit) {
		t.Fatal("nats-server not ready")
	}
	return s.ClientURL()
}

// twoNodesAsk starts nodes n1 and n2 on url with the client options each
// needs, and asks an actor of n2 from n1: the traffic really crossed the
// server under those options.
func twoNodesAsk(t *testing.T, url string, opts ...nats.Option) {
	t.Helper()
	n1 := startNode(t, "n1", remote.WithURL(url), remote.WithNATSOptions(opts...))
	n2 := startNode(t, "n2", remote.WithURL(url), remote.WithNATSOptions(opts...))
	meet(t, n1, n2)
	acct := spawnAccount(t, n2, "a")
	if err := n1.sys.Tell(acct, deposit{Amount: 3}); err != nil {
		t.Fatal(err)
	}
	if sum, err := actor.Ask[int64](waitCtx(t), n1.sys, acct, "balance"); err != nil || sum != 3 {
		t.Fatalf("balance = %d, %v; want 3", sum, err)
	}
}

// TestTLSPassesThrough: nodes reach a server that requires TLS with the
// client TLS options given to WithNATSOptions, and fail without them.
func TestTLSPassesThrough(t *testing.T) {
	cert, pool := selfSigned(t)
	url := externalServer(t, func(o *server.Options) {
		o.TLS, o.TLSConfig = true, &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}
	})
	twoNodesAsk(t, url, nats.Secure(&tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12}))

	sys, err := actor.NewSystem("untrusting")
	if err != nil {
		t.Fatal(err)
	}
	defer sys.Shutdown(waitCtx(t))
	if n, err := remote.Start(sys, remote.WithURL(url), remote.WithNATSOptions(nats.Secure(&tls.Config{MinVersion: tls.VersionTLS12}), nats.NoReconnect())); err == nil {
		_ = n.Close(waitCtx(t))
		t.Fatal("Start trusted a server certificate it had no root for")
	}
}

// TestNkeyPassesThrough: nodes authenticate with an nkey through
// WithNATSOptions; a node with another key is refused.
func TestNkeyPassesThrough(t *testing.T) {
	user, err := nkeys.CreateUser()
	if err != nil {
		t.Fatal(err)
	}
	pub, err := user.PublicKey()
	if err != nil {
		t.Fatal(err)
	}
	url := externalServer(t, func(o *server.Options) { o.Nkeys = []*server.NkeyUser{{Nkey: pub}} })
	twoNodesAsk(t, url, nats.Nkey(pub, user.Sign))

	other, err := nkeys.CreateUser()
	if err != nil {
		t.Fatal(err)
	}
	otherPub, _ := other.PublicKey()
	sys, err := actor.NewSystem("stranger")
	if err != nil {
		t.Fatal(err)
	}
	defer sys.Shutdown(waitCtx(t))
	if n, err := remote.Start(sys, remote.WithURL(url), remote.WithNATSOptions(nats.Nkey(otherPub, other.Sign), nats.NoReconnect())); err == nil {
		_ = n.Close(waitCtx(t))
		t.Fatal("Start with an unknown nkey succeeded")
	}
}

// TestJWTPassesThrough: against a server in operator mode, nodes connect
// with a user JWT signed by a trusted account, given through
// WithNATSOptions (nats.UserJWT; nats.UserCredentials reads the same from
// a creds file); a JWT of an unknown account is refused.
func TestJWTPassesThrough(t *testing.T) {
	op, _ := nkeys.CreateOperator()
	opPub, _ := op.PublicKey()
	opJWT, err := jwt.NewOperatorClaims(opPub).Encode(op)
	if err != nil {
		t.Fatal(err)
	}
	opClaims, err := jwt.DecodeOperatorClaims(opJWT)
	if err != nil {
		t.Fatal(err)
	}
	acc, _ := nkeys.CreateAccount()
	accPub, _ := acc.PublicKey()
	accJWT, err := jwt.NewAccountClaims(accPub).Encode(op)
	if err != nil {
		t.Fatal(err)
	}
	resolver := &server.MemAccResolver{}
	if err := resolver.Store(accPub, accJWT); err != nil {
		t.Fatal(err)
	}
	url := externalServer(t, func(o *server.Options) {
		o.TrustedOperators = []*jwt.OperatorClaims{opClaims}
		o.AccountResolver = resolver
	})
	userJWT := func(issuer nkeys.KeyPair) (nats.Option, error) {
		u, _ := nkeys.CreateUser()
		uPub, _ := u.PublicKey()
		claims := jwt.NewUserClaims(uPub)
		if issuer != acc {
			other, _ := issuer.PublicKey()
			claims.IssuerAccount = other
		}
		tok, err := claims.Encode(issuer)
		if err != nil {
			return nil, err
		}
		return nats.UserJWT(func() (string, error) { return tok, nil }, u.Sign), nil
	}
	trusted, err := userJWT(acc)
	if err != nil {
		t.Fatal(err)
	}
	twoNodesAsk(t, url, trusted)

	stranger, _ := nkeys.CreateAccount()
	untrusted, err := userJWT(stranger)
	if err != nil {
		t.Fatal(err)
	}
	sys, err := actor.NewSystem("outsider")
	if err != nil {
		t.Fatal(err)
	}
	defer sys.Shutdown(waitCtx(t))
	if n, err := remote.Start(sys, remote.WithURL(url), remote.WithNATSOptions(untrusted, nats.NoReconnect())); err == nil {
		_ = n.Close(waitCtx(t))
		t.Fatal("Start with a JWT of an unknown account succeeded")
	}
}
