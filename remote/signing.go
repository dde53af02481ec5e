package remote

import (
	"crypto/ecdh"
	"crypto/ed25519"
	"crypto/hkdf"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"hash"
	"io"
	"maps"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nats-io/nkeys"
)

// WithSigning makes the node sign everything it publishes and act only on
// what the node it claims to come from signed, for networks where
// per-node NATS permissions ([PermissionsFor]) cannot be set.
//
// key is this node's nkey pair (e.g. from nkeys.CreateServer, kept as its
// seed); trusted maps every node name of the network to its public key,
// this node's own included, and is the whole of the trust: a node is
// believed to be X only if it proves it holds the key trusted for X. Give
// every node the same map (a node missing from it cannot talk to the
// others, who refuse its traffic). To add, replace or revoke a node's
// key, change the map on every node and restart them; a node the others
// no longer trust is refused at once. Use the key for troupe only, not
// also as a NATS user's nkey.
//
// See "Signed traffic" in the package doc for what is signed, how
// replays are refused and what signing costs. Every node of a network
// must sign, or none: a node that signs refuses unsigned traffic, and one
// that does not cannot reach nodes that do ([ErrSignature]).
func WithSigning(key nkeys.KeyPair, trusted map[string]string) Option {
	return func(c *config) error {
		if key == nil {
			return fmt.Errorf("%w: WithSigning needs a key pair", ErrSignature)
		}
		seed, err := key.Seed()
		if err != nil {
			return fmt.Errorf("%w: WithSigning needs a key pair with its private key (a seed): %w", ErrSignature, err)
		}
		_, raw, err := nkeys.DecodeSeed(seed)
		if err != nil {
			return fmt.Errorf("%w: WithSigning: %w", ErrSignature, err)
		}
		if len(trusted) == 0 {
			return fmt.Errorf("%w: WithSigning needs the trusted keys of the network's nodes", ErrSignature)
		}
		keys := make(map[string]ed25519.PublicKey, len(trusted))
		for name, pub := range trusted {
			k, err := publicKey(pub)
			if name == "" || err != nil {
				return fmt.Errorf("%w: WithSigning: trusted key %q of node %q: %w", ErrSignature, pub, name, err)
			}
			keys[name] = k
		}
		c.signing = &signingConfig{key: ed25519.NewKeyFromSeed(raw), trusted: keys, names: maps.Clone(trusted)}
		return nil
	}
}

// publicKey decodes an nkeys public key that can verify signatures.
func publicKey(pub string) (ed25519.PublicKey, error) {
	if nkeys.Prefix(pub) == nkeys.PrefixByteCurve {
		return nil, errors.New("a curve (x25519) key cannot sign")
	}
	kp, err := nkeys.FromPublicKey(pub)
	if err != nil {
		return nil, err
	}
	if _, err := kp.PublicKey(); err != nil {
		return nil, err
	}
	raw, err := nkeys.Decode(nkeys.Prefix(pub), []byte(pub))
	if err != nil {
		return nil, err
	}
	return ed25519.PublicKey(raw), nil
}

// signingConfig is what WithSigning was given.
type signingConfig struct {
	key     ed25519.PrivateKey
	trusted map[string]ed25519.PublicKey
	names   map[string]string // the public keys as given, for errors
}

// A sealed message (what a signing node publishes) is its frame behind a
// header that authenticates it:
//
//	0   magic (sealMagic; a frame starts with its version, 1 or 2)
//	1   mode: modeMAC or modeSig
//	2   sender's incarnation            (8 bytes, big endian)
//	10  sender's start, Unix ns         (8)
//	18  receiver's incarnation, 0: any  (8)
//	26  counter                         (8)
//	34  sent at, Unix ns                (8)
//	42  sender's X25519 session key     (32)
//	74  announcement signature          (64): the sender's nkey over its
//	    name, incarnation, start and session key
//	138 authenticator: an HMAC-SHA256 (16 bytes) in modeMAC, an Ed25519
//	    signature (64) in modeSig, over the subject, bytes 0-137 and the
//	    frame
//	154 or 202: the frame
const (
	sealMagic  = 0xF7
	modeMAC    = 1
	modeSig    = 2
	offMode    = 1
	offFromInc = 2
	offStart   = 10
	offToInc   = 18
	offCounter = 26
	offSentAt  = 34
	offSession = 42
	offAnnSig  = 74
	offAuth    = 138
	macSize    = 16
	annSize    = offAuth - offSession
	// sealOverhead is the most a seal adds to a frame: a frame fills up
	// to WithMaxFrame's limit less this, so that sealed it still fits.
	sealOverhead = offAuth + ed25519.SignatureSize
)

// Domain labels keep each kind of signed bytes from passing for another.
const (
	domainFrame    = "troupe-frame-v1\x00"
	domainAnnounce = "troupe-announce-v1\x00"
	domainSession  = "troupe-session-v1"
)

// sealed reports whether data is a sealed message rather than a bare
// frame.
func sealed(data []byte) bool { return len(data) > 0 && data[0] == sealMagic }

// sealHeader is the parsed header of a sealed message.
type sealHeader struct {
	mode                    byte
	fromInc, toInc, counter uint64
	start, sentAt           int64
	session                 [32]byte
	annSig                  [64]byte
}

// parseSealed splits a sealed message into its header, the bytes its
// authenticator covers after the subject, the authenticator and the
// frame.
func parseSealed(data []byte) (h sealHeader, covered, auth, frame []byte, err error) {
	if len(data) < offAuth+macSize {
		return h, nil, nil, nil, fmt.Errorf("%w: sealed message of %d bytes", ErrSignature, len(data))
	}
	h.mode = data[offMode]
	size := macSize
	switch h.mode {
	case modeMAC:
	case modeSig:
		size = ed25519.SignatureSize
	default:
		return h, nil, nil, nil, fmt.Errorf("%w: unknown seal mode %d", ErrSignature, h.mode)
	}
	if len(data) < offAuth+size {
		return h, nil, nil, nil, fmt.Errorf("%w: sealed message of %d bytes", ErrSignature, len(data))
	}
	be := binary.BigEndian
	h.fromInc = be.Uint64(data[offFromInc:])
	h.start = int64(be.Uint64(data[offStart:]))
	h.toInc = be.Uint64(data[offToInc:])
	h.counter = be.Uint64(data[offCounter:])
	h.sentAt = int64(be.Uint64(data[offSentAt:]))
	copy(h.session[:], data[offSession:])
	copy(h.annSig[:], data[offAnnSig:])
	return h, data[:offAuth], data[offAuth : offAuth+size], data[offAuth+size:], nil
}

// signer is a signing node's side of signed traffic: its keys, its
// incarnation's announcement, and what it knows of the other nodes'
// incarnations.
type signer struct {
	name    string
	key     ed25519.PrivateKey
	trusted map[string]ed25519.PublicKey
	inc     uint64
	start   int64
	session *ecdh.PrivateKey // this incarnation's X25519 key
	ann     [annSize]byte    // session public key and its signature
	hbSeq   atomic.Uint64    // counter of what goes to the heartbeat subject
	// limit is how long an incarnation not heard from stays live (the
	// heartbeat limit): see admit.
	limit time.Duration
	mu    sync.Mutex
	nodes map[string]*signedNode
}

// newSigner makes the signer of incarnation inc of the node named name,
// started at start.
func newSigner(cfg *signingConfig, name string, inc uint64, start int64, limit time.Duration) (*signer, error) {
	own, ok := cfg.trusted[name]
	if !ok {
		return nil, fmt.Errorf("%w: node %q has no key among the trusted ones", ErrSignature, name)
	}
	if !own.Equal(cfg.key.Public()) {
		return nil, fmt.Errorf("%w: node %q's key is not the one trusted for it (%s)", ErrSignature, name, cfg.names[name])
	}
	sess, err := ecdh.X25519().GenerateKey(rand.Reader)
	if err != nil {
		return nil, fmt.Errorf("remote: session key: %w", err)
	}
	s := &signer{name: name, key: cfg.key, trusted: cfg.trusted, inc: inc, start: start, session: sess,
		limit: limit, nodes: map[string]*signedNode{}}
	copy(s.ann[:32], sess.PublicKey().Bytes())
	copy(s.ann[32:], ed25519.Sign(s.key, announcement(name, inc, start, s.ann[:32])))
	return s, nil
}

// announcement returns the digest an incarnation's announcement
// signature covers: it binds the session key to the node's name and
// incarnation.
func announcement(name string, inc uint64, start int64, session []byte) []byte {
	h := sha256.New()
	io.WriteString(h, domainAnnounce)
	io.WriteString(h, name)
	var b [17]byte
	binary.BigEndian.PutUint64(b[1:], inc)
	h.Write(b[:9])
	binary.BigEndian.PutUint64(b[:8], uint64(start))
	h.Write(b[:8])
	h.Write(session)
	return h.Sum(nil)
}

// writeCovered writes what a sealed message's authenticator covers (as
// macBuf.sum does).
func writeCovered(h io.Writer, subject string, covered, frame []byte) {
	io.WriteString(h, domainFrame)
	io.WriteString(h, subject)
	h.Write([]byte{0})
	h.Write(covered)
	h.Write(frame)
}

// appendHeader appends a sealed message's header, up to the
// authenticator.
func (s *signer) appendHeader(dst []byte, mode byte, toInc, counter uint64) []byte {
	be := binary.BigEndian
	dst = append(dst, sealMagic, mode)
	dst = be.AppendUint64(dst, s.inc)
	dst = be.AppendUint64(dst, uint64(s.start))
	dst = be.AppendUint64(dst, toInc)
	dst = be.AppendUint64(dst, counter)
	dst = be.AppendUint64(dst, uint64(time.Now().UnixNano()))
	return append(dst, s.ann[:]...)
}

// sealMAC appends frame to dst sealed for the incarnation of the other
// node whose session key mac holds: what one node sends another. buf is
// the caller's scratch (see macBuf).
func (s *signer) sealMAC(dst []byte, subject string, toInc, counter uint64, mac hash.Hash, buf *macBuf, frame []byte) []byte {
	at := len(dst)
	dst = s.appendHeader(dst, modeMAC, toInc, counter)
	dst = append(dst, buf.sum(mac, subject, dst[at:], frame)...)
	return append(dst, frame...)
}

// macBuf is the scratch bytes of computing MACs on one goroutine: the
// flush of a peer, or the inbound handler. Writing a string or a small
// array through the hash.Hash interface would allocate on every frame.
type macBuf struct{ b []byte }

// sum returns the MAC under mac of what a sealed message's authenticator
// covers (see writeCovered); it is valid until the next call.
func (m *macBuf) sum(mac hash.Hash, subject string, covered, frame []byte) []byte {
	m.b = append(m.b[:0], domainFrame...)
	m.b = append(m.b, subject...)
	m.b = append(m.b, 0)
	m.b = append(m.b, covered...)
	mac.Reset()
	mac.Write(m.b)
	mac.Write(frame)
	k := len(m.b)
	m.b = mac.Sum(m.b)
	return m.b[k : k+macSize]
}

// sealSig appends frame to dst signed with the node's key, for any
// receiver: heartbeats and goodbyes, and pings to nodes not heard yet.
func (s *signer) sealSig(dst []byte, subject string, counter uint64, frame []byte) []byte {
	at := len(dst)
	dst = s.appendHeader(dst, modeSig, 0, counter)
	h := sha256.New()
	writeCovered(h, subject, dst[at:], frame)
	dst = append(dst, ed25519.Sign(s.key, h.Sum(nil))...)
	return append(dst, frame...)
}

// sealBroadcast seals a frame for the heartbeat subject.
func (s *signer) sealBroadcast(subject string, frame []byte) []byte {
	return s.sealSig(nil, subject, s.hbSeq.Add(1), frame)
}

// checkSig verifies a modeSig authenticator with the key trusted for
// node.
func (s *signer) checkSig(node, subject string, covered, auth, frame []byte) error {
	key, ok := s.trusted[node]
	if !ok {
		return fmt.Errorf("%w: node %q has no trusted key", ErrSignature, node)
	}
	h := sha256.New()
	writeCovered(h, subject, covered, frame)
	if !ed25519.Verify(key, h.Sum(nil), auth) {
		return fmt.Errorf("%w: bad signature of node %q", ErrSignature, node)
	}
	return nil
}

// openFrame authenticates a sealed frame that node from sent to this one
// on subject, and returns its frame; anyOnly reports a frame signed for
// any receiver, which may hold pings only (the caller checks). A frame
// is refused unless it is sealed for this incarnation by an incarnation
// of from that this node admits, with a counter not seen before.
func (s *signer) openFrame(subject, from string, data []byte, buf *macBuf) (frame []byte, anyOnly bool, err error) {
	if !sealed(data) {
		return nil, false, fmt.Errorf("%w: unsigned frame from node %q: this node accepts signed frames only", ErrSignature, from)
	}
	h, covered, auth, frame, err := parseSealed(data)
	if err != nil {
		return nil, false, err
	}
	if h.mode == modeSig {
		if h.toInc != 0 {
			return nil, false, fmt.Errorf("%w: signed frame for one incarnation", ErrSignature)
		}
		return frame, true, s.checkSig(from, subject, covered, auth, frame)
	}
	if h.toInc != s.inc {
		return nil, false, fmt.Errorf("%w: frame of node %q sealed for incarnation %x, this is %x", ErrSignature, from, h.toInc, s.inc)
	}
	inc, err := s.admit(from, &h, false)
	if err != nil {
		return nil, false, err
	}
	if err := inc.checkMAC(subject, covered, auth, frame, buf); err != nil {
		return nil, false, fmt.Errorf("%w: frame of node %q: %w", ErrSignature, from, err)
	}
	if !inc.frames.accept(h.counter) {
		return nil, false, fmt.Errorf("%w: frame %d of node %q (incarnation %x) replayed", ErrSignature, h.counter, from, h.fromInc)
	}
	return frame, false, nil
}

// openBroadcast authenticates what arrived on node from's heartbeat
// subject and returns its frame, and the incarnation it came from (nil
// for this node's own name: a namesake's, see onNamesake). It is refused
// unless signed by from's key, sent within maxSkew of this node's clock,
// by an incarnation this node admits, with a counter not seen before.
func (s *signer) openBroadcast(subject, from string, data []byte) ([]byte, *incarnation, error) {
	if !sealed(data) {
		return nil, nil, fmt.Errorf("%w: unsigned heartbeat of node %q: this node accepts signed traffic only", ErrSignature, from)
	}
	h, covered, auth, frame, err := parseSealed(data)
	if err != nil {
		return nil, nil, err
	}
	if h.mode != modeSig || h.toInc != 0 {
		return nil, nil, fmt.Errorf("%w: heartbeat of node %q not signed for all", ErrSignature, from)
	}
	if err := s.checkSig(from, subject, covered, auth, frame); err != nil {
		return nil, nil, err
	}
	if skew := time.Since(time.Unix(0, h.sentAt)).Abs(); skew > maxSkew {
		return nil, nil, fmt.Errorf("%w: heartbeat of node %q sent %s from this node's clock (at most %s)", ErrSignature, from, skew.Round(time.Millisecond), maxSkew)
	}
	if from == s.name {
		return frame, nil, nil
	}
	inc, err := s.admit(from, &h, true)
	if err != nil {
		return nil, nil, err
	}
	if !inc.heartbeats.accept(h.counter) {
		return nil, nil, fmt.Errorf("%w: heartbeat %d of node %q (incarnation %x) replayed", ErrSignature, h.counter, from, h.fromInc)
	}
	return frame, inc, nil
}

// maxSkew bounds how far the time a heartbeat was sent at, by its
// sender's clock, may be from the receiver's: a heartbeat captured
// earlier than that is refused however it is replayed. Clocks of the
// nodes must agree within it.
const maxSkew = 30 * time.Second

// session derives the key of the frames between this incarnation and
// incarnation inc of node name, whose X25519 key is peer: both sides get
// the same key, which nobody else can.
func (s *signer) sessionKey(name string, inc uint64, peer []byte) ([]byte, error) {
	pub, err := ecdh.X25519().NewPublicKey(peer)
	if err != nil {
		return nil, err
	}
	shared, err := s.session.ECDH(pub)
	if err != nil {
		return nil, err
	}
	// The label orders the two incarnations by name, so that both sides
	// derive it alike.
	a, b := s.name, name
	ia, ib := s.inc, inc
	if b < a {
		a, b, ia, ib = b, a, ib, ia
	}
	info := fmt.Sprintf("%s %q %x %q %x", domainSession, a, ia, b, ib)
	return hkdf.Key(sha256.New, shared, nil, info, sha256.Size)
}

// checkMAC verifies a modeMAC authenticator with the incarnation's
// session key. On the inbound goroutine only, buf its scratch.
func (i *incarnation) checkMAC(subject string, covered, auth, frame []byte, buf *macBuf) error {
	if !hmac.Equal(buf.sum(i.in, subject, covered, frame), auth) {
		return errors.New("bad authenticator")
	}
	return nil
}
