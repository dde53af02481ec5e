package jsactor

import (
	"strconv"
	"strings"
)

// A script's stack shows the script's frames. goja names the frames of
// Go functions by their Go path (github.com/...(*instance).setTimeout-fm)
// and the host's own JavaScript helpers by their internal file names;
// neither means anything to the script's author, and the Go names tell a
// hostile one about the host. cleanStack drops both, and takes the
// CommonJS wrapper's width off the columns of the script's first line.

// shimPrefix starts the file name of every JavaScript helper of the host
// (see follow.go, microtask.go, web_basics.go, web_events.go).
const shimPrefix = "jsactor:"

// cleanStack removes goja's leading message line (msg) from stack and the
// frames a script did not write.
func (in *instance) cleanStack(stack, msg string) string {
	stack = trimStack(stack, msg)
	lines := strings.Split(strings.TrimRight(stack, "\n"), "\n")
	out := lines[:0]
	first := "\x00" // no script (internal tests): nothing to shift
	if in.script != nil {
		first = "(" + in.script.name + ":1:"
	}
	for _, l := range lines {
		if hostFrame(l) {
			continue
		}
		if i := strings.Index(l, first); i >= 0 {
			l = shiftColumn(l, i+len(first))
		}
		out = append(out, l)
	}
	if len(out) == 0 {
		return ""
	}
	return strings.Join(out, "\n") + "\n"
}

// hostFrame reports whether a stack line is a frame of the host: a Go
// function (goja names it by its Go path) or a host helper script.
func hostFrame(l string) bool {
	t := strings.TrimSpace(l)
	if strings.Contains(t, "("+shimPrefix) {
		return true
	}
	if !strings.HasSuffix(t, "(native)") {
		return false
	}
	name := strings.TrimSuffix(strings.TrimPrefix(t, "at "), "(native)")
	return strings.ContainsAny(name, "/*") || strings.HasSuffix(strings.TrimSpace(name), "-fm")
}

// shiftColumn takes the wrapper's width off the column starting at i.
func shiftColumn(l string, i int) string {
	j := i
	for j < len(l) && l[j] >= '0' && l[j] <= '9' {
		j++
	}
	col, err := strconv.Atoi(l[i:j])
	if err != nil || col <= len(wrapperHead) {
		return l
	}
	return l[:i] + strconv.Itoa(col-len(wrapperHead)) + l[j:]
}
