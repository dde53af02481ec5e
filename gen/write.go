package gen

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"slices"
)

// Write writes files, as returned by [Generate], into dir, and removes the
// files troupegen generated before for actors that are gone. A file whose
// content is unchanged is not rewritten.
func Write(dir string, files map[string][]byte) error {
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
		if data, err := os.ReadFile(path); err == nil && bytes.Contains(data, []byte("// "+header)) {
			errs = append(errs, os.Remove(path))
		}
	}
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		path := filepath.Join(dir, name)
		if old, err := os.ReadFile(path); err == nil && bytes.Equal(old, files[name]) {
			continue
		}
		errs = append(errs, os.WriteFile(path, files[name], 0o644))
	}
	return errors.Join(errs...)
}
