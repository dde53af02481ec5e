package goja

// troupe patch: bounded BigInt sizes (see README.md in this directory).
//
// Upstream goja computes every BigInt result with math/big at whatever
// size the operands ask for: 1n << (2n ** 40n) asks for 137 GB at once,
// and Go's out-of-memory is fatal to the process, not a panic; a product
// or power of a few megabits runs for minutes in one VM instruction that
// no interrupt reaches. So every operation whose result size follows from
// its operands checks that size against the Runtime's limit before it
// allocates, and throws a RangeError as V8 does ("Maximum BigInt size
// exceeded"). The limit also bounds what one operation can cost in time:
// at 2^20 bits, the default, the dearest (a product, a decimal
// conversion either way) takes tens of milliseconds.

import (
	"math/big"
	"strings"
)

// DefaultMaxBigIntBits is the largest BigInt, in bits, a Runtime makes
// unless SetMaxBigIntBits says otherwise (V8 allows 2^30).
const DefaultMaxBigIntBits = 1 << 20

const errBigIntTooLarge = "Maximum BigInt size exceeded"

// SetMaxBigIntBits sets the largest BigInt, in bits, this Runtime's
// operations may produce; 0 or less restores DefaultMaxBigIntBits, and a
// limit above it is lowered to it (string conversions, which have no
// Runtime at hand, always use the default). Not safe for concurrent use,
// as the rest of Runtime.
func (r *Runtime) SetMaxBigIntBits(bits int) {
	if bits <= 0 || bits > DefaultMaxBigIntBits {
		bits = DefaultMaxBigIntBits
	}
	r.maxBigIntBits = bits
}

// bigIntBits is the Runtime's limit.
func (r *Runtime) bigIntBits() int {
	if r.maxBigIntBits == 0 {
		return DefaultMaxBigIntBits
	}
	return r.maxBigIntBits
}

// checkBigIntBits throws a RangeError when a result of bits bits is over
// the limit.
func (r *Runtime) checkBigIntBits(bits uint64) {
	if bits > uint64(r.bigIntBits()) {
		panic(r.newError(r.getRangeError(), errBigIntTooLarge))
	}
}

// bigIntResult checks a result computed already (sums, differences: at
// most one bit over their operands, so never much over the limit).
func (r *Runtime) bigIntResult(x *big.Int) *valueBigInt {
	r.checkBigIntBits(uint64(x.BitLen()))
	return (*valueBigInt)(x)
}

// bigIntMul is x * y, checked before it is computed.
func (r *Runtime) bigIntMul(x, y *big.Int) *valueBigInt {
	if x.Sign() != 0 && y.Sign() != 0 {
		r.checkBigIntBits(uint64(x.BitLen()) + uint64(y.BitLen()) - 1)
	}
	return (*valueBigInt)(new(big.Int).Mul(x, y))
}

// bigIntExp is x ** y (y >= 0), checked before it is computed: |x| >= 2
// gives at least (bitlen(x) - 1) * y + 1 bits.
func (r *Runtime) bigIntExp(x, y *big.Int) *valueBigInt {
	if x.CmpAbs(big.NewInt(1)) > 0 && y.Sign() > 0 {
		if !y.IsUint64() || y.Uint64() > uint64(r.bigIntBits()) {
			r.checkBigIntBits(uint64(r.bigIntBits()) + 1)
		}
		r.checkBigIntBits(uint64(x.BitLen()-1)*y.Uint64() + 1)
	}
	return (*valueBigInt)(new(big.Int).Exp(x, y, nil))
}

// bigIntShift is x << n (n < 0: x >> -n, rounding towards -Infinity),
// checked before it is computed. upstream truncated n to 64 bits, so that
// 1n << (2n ** 64n + 1n) was 2n.
func (r *Runtime) bigIntShift(x, n *big.Int) *valueBigInt {
	if x.Sign() == 0 || n.Sign() == 0 {
		return (*valueBigInt)(new(big.Int).Set(x))
	}
	if n.Sign() > 0 {
		if !n.IsUint64() || n.Uint64() > uint64(r.bigIntBits()) {
			r.checkBigIntBits(uint64(r.bigIntBits()) + 1)
		}
		r.checkBigIntBits(uint64(x.BitLen()) + n.Uint64())
		return (*valueBigInt)(new(big.Int).Lsh(x, uint(n.Uint64())))
	}
	abs := new(big.Int).Neg(n)
	if !abs.IsUint64() || abs.Uint64() >= uint64(x.BitLen()) {
		if x.Sign() < 0 {
			return (*valueBigInt)(big.NewInt(-1))
		}
		return (*valueBigInt)(big.NewInt(0))
	}
	return (*valueBigInt)(new(big.Int).Rsh(x, uint(abs.Uint64())))
}

// bigIntAsN is BigInt.asIntN (signed) or BigInt.asUintN of x to bits
// bits, without the 2^bits that upstream allocated whatever bits was: a
// value that already fits is returned as it is, and only a result that
// needs bits bits is checked against the limit.
func (r *Runtime) bigIntAsN(bits int64, x *big.Int, signed bool) *valueBigInt {
	if bits == 0 {
		return (*valueBigInt)(big.NewInt(0))
	}
	fits := x.Sign() >= 0 && int64(x.BitLen()) <= bits
	if signed {
		fits = int64(x.BitLen()) < bits || (x.Sign() < 0 && int64(new(big.Int).Add(x, big.NewInt(1)).BitLen()) < bits)
	}
	if fits {
		return (*valueBigInt)(new(big.Int).Set(x))
	}
	if bits > int64(r.bigIntBits()) {
		r.checkBigIntBits(uint64(bits))
	}
	twoToBits := new(big.Int).Lsh(big.NewInt(1), uint(bits))
	mod := new(big.Int).Mod(x, twoToBits)
	if signed && mod.Cmp(new(big.Int).Lsh(big.NewInt(1), uint(bits-1))) >= 0 {
		mod.Sub(mod, twoToBits)
	}
	return (*valueBigInt)(mod)
}

// bigIntFromString parses the digits of a string StringToBigInt accepts
// (base prefix included) with DefaultMaxBigIntBits as its limit, before
// parsing, and in time O(M(n) log n) rather than math/big's quadratic
// decimal parse (BigInt('1'.repeat(1e7)) took seven minutes upstream).
func bigIntFromString(str string) (*big.Int, bool) {
	digits, bitsPerDigit := str, 3.33
	if len(str) > 2 && str[0] == '0' {
		switch str[1] {
		case 'x', 'X':
			digits, bitsPerDigit = str[2:], 4
		case 'o', 'O':
			digits, bitsPerDigit = str[2:], 3
		case 'b', 'B':
			digits, bitsPerDigit = str[2:], 1
		}
	}
	digits = strings.TrimLeft(strings.TrimLeft(digits, "+-"), "0")
	if float64(len(digits))*(bitsPerDigit-0.01) > DefaultMaxBigIntBits+4 {
		panic(rangeError(errBigIntTooLarge))
	}
	if bitsPerDigit == 3.33 { // and so no base prefix: base 0 would read a leading 0 as octal
		return parseDecimal(str)
	}
	return new(big.Int).SetString(str, 0)
}

// decimalSplit is the length above which parseDecimal divides and
// conquers.
const decimalSplit = 2048

// parseDecimal parses a signed decimal string by halves, hi * 10^len(lo)
// + lo, so that the work is in a few large products (Karatsuba in
// math/big) instead of one multiply-add per word.
func parseDecimal(s string) (*big.Int, bool) {
	neg := false
	switch s[0] {
	case '-':
		neg, s = true, s[1:]
	case '+':
		s = s[1:]
	}
	x, ok := parseDigits(s)
	if ok && neg {
		x.Neg(x)
	}
	return x, ok
}

func parseDigits(s string) (*big.Int, bool) {
	if len(s) <= decimalSplit {
		if s == "" || s[0] == '+' || s[0] == '-' {
			return nil, false
		}
		return new(big.Int).SetString(s, 10)
	}
	half := len(s) / 2
	hi, ok := parseDigits(s[:half])
	if !ok {
		return nil, false
	}
	lo, ok := parseDigits(s[half:])
	if !ok {
		return nil, false
	}
	p := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(len(s)-half)), nil)
	return hi.Add(hi.Mul(hi, p), lo), true
}
