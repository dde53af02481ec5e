//go:build !linux && !darwin && !dragonfly && !freebsd && !windows

package poller

import (
	"errors"
	"fmt"
	"runtime"
	"time"
)

// maxFD is the largest fd the backend accepts.
const maxFD = ^uintptr(0)

// errNoBackend reports that this GOOS has no backend.
var errNoBackend = fmt.Errorf("poller: no backend for %s: %w", runtime.GOOS, errors.ErrUnsupported)

// Poller is unavailable on this GOOS: [New] returns an error wrapping
// errors.ErrUnsupported. The type exists so that importers still build.
type Poller struct{ core }

// New returns an error wrapping errors.ErrUnsupported on this GOOS.
func New() (*Poller, error) { return nil, errNoBackend }

func (p *Poller) add(uintptr, Events, uint32, bool) error      { return errNoBackend }
func (p *Poller) modify(uintptr, Events, Events, uint32) error { return errNoBackend }
func (p *Poller) del(uintptr, Events) error                    { return errNoBackend }
func (p *Poller) waitOS(int, time.Duration) (int, error)       { return 0, errNoBackend }
func (p *Poller) deliver(int, []Event) int                     { return 0 }
func (p *Poller) kick() error                                  { return errNoBackend }
func (p *Poller) release() error                               { return nil }
