package gen

import (
	"bytes"
	"errors"
	"fmt"
	"go/build"
	"go/token"
	"os"
	"path/filepath"
	"slices"
)

// Write writes files, as returned by [Generate], into dir, and removes the
// files troupegen generated before for actors that are gone (those the
// current build reads: a file for another GOOS, GOARCH or tags stays). A
// file whose content is unchanged is not rewritten, and a file troupegen
// did not write (one without its header) is never overwritten: Write
// writes nothing then, and returns [Problems] naming it.
func Write(dir string, files map[string][]byte) error {
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	slices.Sort(names)
	var theirs Problems
	for _, name := range names {
		path := filepath.Join(dir, name)
		if _, err := os.Stat(path); err == nil && !isOursOnDisk(path) {
			theirs = append(theirs, Problem{Pos: token.Position{Filename: name, Line: 1, Column: 1},
				Msg: fmt.Sprintf("%s is not a file troupegen wrote (it lacks the line // %s): troupegen does not overwrite it; rename or remove it", name, header)})
		}
	}
	if len(theirs) > 0 {
		return theirs
	}
	var errs []error
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	for _, e := range entries {
		name := e.Name()
		if _, keep := files[name]; keep || e.IsDir() || !isGenFile(name) {
			continue
		}
		path := filepath.Join(dir, name)
		if isOursOnDisk(path) && inBuild(dir, name) {
			errs = append(errs, os.Remove(path))
		}
	}
	for _, name := range names {
		path := filepath.Join(dir, name)
		if old, err := os.ReadFile(path); err == nil && bytes.Equal(old, files[name]) {
			continue
		}
		errs = append(errs, os.WriteFile(path, files[name], 0o644))
	}
	return errors.Join(errs...)
}

// isOursOnDisk reports whether the file at path carries troupegen's
// header.
func isOursOnDisk(path string) bool {
	data, err := os.ReadFile(path)
	return err == nil && bytes.Contains(data, []byte("// "+header))
}

// inBuild reports whether the build troupegen runs in reads the file name
// of dir, by its name and //go:build line.
func inBuild(dir, name string) bool {
	ok, err := build.Default.MatchFile(dir, name)
	return err != nil || ok // a file it cannot read is not kept for that
}
