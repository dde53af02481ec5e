// Package resp reads commands in RESP2, the Redis serialization protocol
// (arrays of bulk strings, and inline commands), and writes its replies.
package resp

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
)

// Limits on what a client may send; past them a command is a protocol
// error (Redis's defaults are larger; these keep one connection's memory
// bounded).
const (
	MaxBulk   = 64 << 20 // bytes in one bulk string
	MaxArgs   = 1 << 20  // elements in one command
	MaxInline = 64 << 10 // bytes in one inline command or header line
)

// ErrProtocol is wrapped by every parse error: the client sent something
// that is not RESP2; the server replies with an error and closes.
var ErrProtocol = errors.New("Protocol error")

func protoErr(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrProtocol, fmt.Sprintf(format, args...))
}

// Parse reads one command from the start of buf. It returns its
// arguments (slices of buf), and the bytes it used; n == 0 with a nil
// error means buf holds no complete command yet.
func Parse(buf []byte) (args [][]byte, n int, err error) { return ParseAppend(nil, buf) }

// ParseAppend is Parse appending the arguments to args, so a caller that
// handles each command before parsing the next can reuse one slice.
func ParseAppend(args [][]byte, buf []byte) ([][]byte, int, error) {
	if len(buf) == 0 {
		return nil, 0, nil
	}
	if buf[0] != '*' {
		return parseInline(args, buf)
	}
	line, pos, err := readLine(buf, 0)
	if err != nil || line == nil {
		return nil, 0, err
	}
	count, err := parseLen(line[1:], MaxArgs, "multibulk length")
	if err != nil {
		return nil, 0, err
	}
	if args == nil {
		args = make([][]byte, 0, min(max(count, 0), 64))
	}
	if count <= 0 {
		return args, pos, nil
	}
	for range count {
		if pos >= len(buf) {
			return nil, 0, nil
		}
		if buf[pos] != '$' {
			return nil, 0, protoErr("expected '$', got '%s'", printable(buf[pos]))
		}
		line, next, err := readLine(buf, pos)
		if err != nil || line == nil {
			return nil, 0, err
		}
		size, err := parseLen(line[1:], MaxBulk, "bulk length")
		if err != nil {
			return nil, 0, err
		}
		if size < 0 {
			return nil, 0, protoErr("invalid bulk length")
		}
		end := next + size
		if end+2 > len(buf) {
			return nil, 0, nil
		}
		if buf[end] != '\r' || buf[end+1] != '\n' {
			return nil, 0, protoErr("bulk string not terminated by CRLF")
		}
		args = append(args, buf[next:end:end])
		pos = end + 2
	}
	return args, pos, nil
}

// readLine returns the line starting at pos (without CRLF) and the
// position after it; a nil line means it is not complete yet.
func readLine(buf []byte, pos int) ([]byte, int, error) {
	i := bytes.IndexByte(buf[pos:], '\n')
	if i < 0 {
		if len(buf)-pos > MaxInline {
			return nil, 0, protoErr("too big header line")
		}
		return nil, 0, nil
	}
	if i == 0 || buf[pos+i-1] != '\r' {
		return nil, 0, protoErr("header line not terminated by CRLF")
	}
	return buf[pos : pos+i-1], pos + i + 1, nil
}

func parseLen(b []byte, max int, what string) (int, error) {
	n, err := strconv.Atoi(string(b))
	if err != nil || n > max {
		return 0, protoErr("invalid %s", what)
	}
	return n, nil
}

// parseInline reads a command typed as one line of space-separated words.
func parseInline(args [][]byte, buf []byte) ([][]byte, int, error) {
	i := bytes.IndexByte(buf, '\n')
	if i < 0 {
		if len(buf) > MaxInline {
			return nil, 0, protoErr("too big inline request")
		}
		return nil, 0, nil
	}
	line := buf[:i]
	line = bytes.TrimSuffix(line, []byte{'\r'})
	if args == nil {
		args = [][]byte{}
	}
	for _, f := range bytes.Fields(line) {
		args = append(args, f[:len(f):len(f)])
	}
	return args, i + 1, nil
}

func printable(b byte) string {
	if b >= 0x20 && b < 0x7f {
		return string(rune(b))
	}
	return fmt.Sprintf("\\x%02x", b)
}
