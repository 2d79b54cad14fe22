module example.com/bugkit

go 1.26.0

require github.com/gfz-dev/gfz v0.0.0-00010101000000-000000000000

require (
	golang.org/x/sys v0.49.0 // indirect
	golang.org/x/term v0.37.0 // indirect
)

replace github.com/gfz-dev/gfz => ../../..
