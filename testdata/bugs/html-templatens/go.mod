module example.com/bugs/htmltemplatens

go 1.26.0

require (
	example.com/bugkit v0.0.0-00010101000000-000000000000
	github.com/gfz-dev/gfz v0.0.0-00010101000000-000000000000
	golang.org/x/net v0.0.0-20180921000356-2f5d2388922f
)

replace (
	example.com/bugkit => ../bugkit
	github.com/gfz-dev/gfz => ../../..
)
