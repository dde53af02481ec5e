module github.com/dop251/goja

go 1.25.0

require (
	github.com/dlclark/regexp2/v2 v2.5.2
	github.com/go-sourcemap/sourcemap v2.1.4+incompatible
	github.com/google/pprof v0.0.0-20240727154555-813a5fbdbec8
	golang.org/x/text v0.43.0
)
