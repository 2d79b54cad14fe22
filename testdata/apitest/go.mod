module gfztest.example/apitest

go 1.26.0

require github.com/gfz-dev/gfz v0.0.0

require (
	golang.org/x/sys v0.49.0 // indirect
	golang.org/x/term v0.37.0 // indirect
)

replace github.com/gfz-dev/gfz => ../..
