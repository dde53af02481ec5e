// Package bad is a golden test input: near-miss directives, which would
// otherwise annotate nothing without a word.
package bad

// Spaced has a space after the slashes.
//
// troupe:actor
type Spaced struct{}

// Plural has a typo in the verb.
//
//troupe:actors
type Plural struct{}

// AfterColon has a space after the colon.
//
// troupe: actor kind=x
type AfterColon struct{}

// Capital has a capital.
//
// Troupe:actor
type Capital struct{}

// Both spaced.
//
//	troupe : js
type Both interface{}

// Block uses a block comment.
/* troupe:actor */
type Block struct{}

// Prose mentions troupe: this is prose, not a directive.
type Prose struct{}

// Fine is annotated.
//
//troupe:actor
type Fine struct{}

// Notes are prose about troupe: actors run on their own loops, and
// troupe: actor kinds name them. None of this is a directive.
type Notes struct{}
