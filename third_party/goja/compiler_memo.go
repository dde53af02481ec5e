package goja

// troupe patch: linear constant folding (see README.md in this directory).
//
// Upstream asks a compiled expression whether it is constant by walking
// its subtree, and a logical operator (||, &&, ??) evaluates its left
// operand to answer, which asks again: the work grew exponentially with a
// chain of logical operators ('1||'.repeat(40) + '1' compiled for hours)
// and quadratically with a chain of arithmetic ones. Each answer and each
// constant's value is worked out once per node and remembered.

import (
	"sync/atomic"

	"github.com/dop251/goja/ast"
	"github.com/dop251/goja/file"
)

type constResult struct {
	v  Value
	ex *Exception
}

// memoConstant is f() for e, computed once.
func (c *compiler) memoConstant(e compiledExpr, f func() bool) bool {
	if v, ok := c.constMemo[e]; ok {
		return v
	}
	v := f()
	if c.constMemo == nil {
		c.constMemo = map[compiledExpr]bool{}
	}
	c.constMemo[e] = v
	return v
}

// maxExpressionDepth bounds how deeply the compiler recurses into an
// expression. The parser bounds the nesting it recurses for (see
// parser.MaxNesting), but a chain of left-associative operators (1+1+...,
// a.b.c...) is parsed in a loop into a tree as deep as the chain is
// long, which the compiler and the emitter then walk recursively.
const maxExpressionDepth = 10000

func (c *compiler) nest(v ast.Expression) {
	c.depth++
	if c.nodes++; c.nodes%1024 == 0 && c.ctxVM != nil && c.ctxVM.isInterrupted() {
		c.throwSyntaxError(0, "Compilation interrupted")
	}
	if c.depth > maxExpressionDepth {
		offset := 0
		if v != nil {
			offset = int(v.Idx0()) - 1
		}
		c.throwSyntaxErrorf(offset, "Expression nested too deeply (more than %d levels)", maxExpressionDepth)
	}
}

func (c *compiler) unnest() { c.depth-- }

// binaryIdx0 is v.Idx0() without its walk down the left operands, which
// made compiling a chain of n operators take time in n².
func (c *compiler) binaryIdx0(v *ast.BinaryExpression) file.Idx {
	if idx, ok := c.binaryIdx[v]; ok {
		return idx
	}
	var chain []*ast.BinaryExpression
	var idx file.Idx
	for e := ast.Expression(v); ; {
		b, ok := e.(*ast.BinaryExpression)
		if !ok {
			idx = e.Idx0()
			break
		}
		if known, ok := c.binaryIdx[b]; ok {
			idx = known
			break
		}
		chain = append(chain, b)
		e = b.Left
	}
	if c.binaryIdx == nil {
		c.binaryIdx = map[*ast.BinaryExpression]file.Idx{}
	}
	for _, b := range chain {
		c.binaryIdx[b] = idx
	}
	return idx
}

// isInterrupted reports whether vm's Runtime was interrupted: the parse
// and the compilation of code eval and the Function constructors compile
// give up then (upstream ran them to the end, for minutes on megabytes).
func (vm *vm) isInterrupted() bool { return atomic.LoadUint32(&vm.interrupted) != 0 }
