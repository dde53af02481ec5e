// Package build is a golden test input: actors in files with build
// constraints, and annotated types in files the build leaves out.
package build
