package parser

// troupe patch: bounded nesting (see README.md at the root of this fork).
//
// The parser recurses in Go for every level of nesting in the source, a
// few stack frames per level, and goja's compiler recurses over the tree
// it builds: a million '(' or '[' overflowed the goroutine's stack, which
// is fatal to a Go process (not a panic). So the recursive descent counts
// its depth and gives up with a SyntaxError past MaxNesting, before it
// recurses further.

import "fmt"

// MaxNesting is how deeply source text may nest: parentheses, brackets,
// braces, statements, unary and new operators, each level counting one.
const MaxNesting = 1000

// maxBigIntLiteral bounds the length of a BigInt literal: math/big parses
// decimal digits in quadratic time, and no BigInt over goja's
// DefaultMaxBigIntBits (2^20) can be made anyway.
const maxBigIntLiteral = 1 << 18

// maxErrors is how many errors the parser reports before it gives up:
// upstream went on to the end of the source whatever it found, and a
// few megabytes of garbage ('f()'.repeat(2e6)) took seconds to list as
// millions of errors.
const maxErrors = 10

// interruptEvery is how many tokens the parser scans between two looks at
// its interrupt check.
const interruptEvery = 1024

// tooDeep is what the parser panics with to give up (too deep, too many
// errors, interrupted); parse recovers it as its error.
type tooDeep struct{}

// WithInterrupt makes the parser give up, with an error, once interrupted
// returns true, which it asks every thousand tokens or so: goja passes
// its Runtime's interrupt flag for the code eval and the Function
// constructors compile, so that Runtime.Interrupt stops a parse of
// megabytes of source as it stops a loop.
func WithInterrupt(interrupted func() bool) Option {
	return func(opts *options) { opts.interrupted = interrupted }
}

// scanned counts one token and gives up if the parse was interrupted.
func (self *_parser) scanned() {
	self.tokens++
	if self.tokens%interruptEvery == 0 && self.opts.interrupted != nil && self.opts.interrupted() {
		self.error(self.idx, "Parsing interrupted")
		panic(tooDeep{})
	}
}

// tooManyErrors gives up once maxErrors were reported.
func (self *_parser) tooManyErrors() {
	if len(self.errors) >= maxErrors {
		panic(tooDeep{})
	}
}

// nest counts one level down, giving up past MaxNesting; each nest is
// paired with a deferred unnest.
func (self *_parser) nest() {
	self.depth++
	if self.depth > MaxNesting {
		self.error(self.idx, fmt.Sprintf("Maximum nesting depth exceeded (%d levels)", MaxNesting))
		panic(tooDeep{})
	}
}

func (self *_parser) unnest() { self.depth-- }

// recoverTooDeep turns nest's panic into the parse's error.
func (self *_parser) recoverTooDeep(err *error) {
	if r := recover(); r != nil {
		if _, ok := r.(tooDeep); !ok {
			panic(r)
		}
		*err = self.errors.Err()
	}
}
