module github.com/troupe-go/troupe/bench

go 1.26.1

require (
	github.com/dop251/goja v0.0.0-20250309171923-bcd7cc6bf64c
	github.com/dop251/goja_nodejs v0.0.0-20260212111938-1f56ff5bcf14
	github.com/joeycumines/go-eventloop v0.0.0-20260428025403-c64a0733c558
	github.com/troupe-go/troupe v0.0.0
	go.uber.org/goleak v1.3.0
)

require (
	github.com/dlclark/regexp2 v1.11.4 // indirect
	github.com/go-sourcemap/sourcemap v2.1.4+incompatible // indirect
	github.com/google/pprof v0.0.0-20240727154555-813a5fbdbec8 // indirect
	github.com/joeycumines/go-catrate v0.0.0-20260306044141-5afeab37e342 // indirect
	github.com/joeycumines/goroutineid v1.1.0 // indirect
	github.com/joeycumines/logiface v0.5.0 // indirect
	golang.org/x/exp v0.0.0-20260312153236-7ab1446f8b90 // indirect
	golang.org/x/sys v0.49.0 // indirect
	golang.org/x/text v0.16.0 // indirect
)

replace github.com/troupe-go/troupe => ../
