module example.com/bugs/htmlselectloop

go 1.26.0

require (
	example.com/bugkit v0.0.0-00010101000000-000000000000
	github.com/gfz-dev/gfz v0.0.0-00010101000000-000000000000
	golang.org/x/net v0.0.0-20190125002852-4b62a64f59f7
)

replace (
	example.com/bugkit => ../bugkit
	github.com/gfz-dev/gfz => ../../..
)
