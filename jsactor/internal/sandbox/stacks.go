package sandbox

import (
	"strconv"
	"strings"
)

// A script's stack shows the script's frames. goja names the frames of
// Go functions by their Go path (github.com/...(*instance).setTimeout-fm)
// and the host's own JavaScript helpers by their internal file names;
// neither means anything to the script's author, and the Go names tell a
// hostile one about the host. CleanStack drops both, and takes the
// CommonJS wrapper's width off the columns of the script's first line.

// ShimPrefix starts the file name of every JavaScript helper of the host
// (see MustCompileShim).
const ShimPrefix = "jsactor:"

// CleanStack removes goja's leading message line (msg) from stack and the
// frames a script did not write. first is how a frame on the script's
// first line starts its position ("(name.js:1:", see FirstLine), or ""
// for no script (nothing to shift); wrapper is the width of the CommonJS
// wrapper that precedes the script's first line there.
func CleanStack(stack, msg, first string, wrapper int) string {
	stack = TrimStack(stack, msg)
	lines := strings.Split(strings.TrimRight(stack, "\n"), "\n")
	out := lines[:0]
	if first == "" {
		first = "\x00" // no script (internal tests): nothing to shift
	}
	for _, l := range lines {
		if hostFrame(l) {
			continue
		}
		if i := strings.Index(l, first); i >= 0 {
			l = shiftColumn(l, i+len(first), wrapper)
		}
		out = append(out, l)
	}
	if len(out) == 0 {
		return ""
	}
	if len(out) > 2*keptFrames {
		omitted := len(out) - 2*keptFrames
		out = append(append(out[:keptFrames:keptFrames], "\t... "+strconv.Itoa(omitted)+" more frames ..."), out[len(out)-keptFrames:]...)
	}
	return strings.Join(out, "\n") + "\n"
}

// keptFrames is how many frames a stack keeps at each end: a stack
// overflow's 5000 frames made an error text of 105 KB, in logs and in
// the ask's error. (V8 keeps 10, Error.stackTraceLimit.)
const keptFrames = 10

// FirstLine is CleanStack's first for the script named name.
func FirstLine(name string) string { return "(" + name + ":1:" }

// TrimStack removes the message line that goja puts first.
func TrimStack(stack, msg string) string {
	if len(stack) > len(msg) && stack[:len(msg)] == msg {
		stack = stack[len(msg):]
	}
	for len(stack) > 0 && stack[0] == '\n' {
		stack = stack[1:]
	}
	return stack
}

// hostFrame reports whether a stack line is a frame of the host: a Go
// function (goja names it by its Go path) or a host helper script.
func hostFrame(l string) bool {
	t := strings.TrimSpace(l)
	if strings.Contains(t, "("+ShimPrefix) {
		return true
	}
	if !strings.HasSuffix(t, "(native)") {
		return false
	}
	name := strings.TrimSuffix(strings.TrimPrefix(t, "at "), "(native)")
	return strings.ContainsAny(name, "/*") || strings.HasSuffix(strings.TrimSpace(name), "-fm")
}

// shiftColumn takes the wrapper's width off the column starting at i.
func shiftColumn(l string, i, wrapper int) string {
	j := i
	for j < len(l) && l[j] >= '0' && l[j] <= '9' {
		j++
	}
	col, err := strconv.Atoi(l[i:j])
	if err != nil || col <= wrapper {
		return l
	}
	return l[:i] + strconv.Itoa(col-wrapper) + l[j:]
}
