module example.com/bugs/exprnilcall

go 1.26.0

replace (
	example.com/bugkit => ../bugkit
	github.com/gfz-dev/gfz => ../../..
)

require (
	example.com/bugkit v0.0.0-00010101000000-000000000000
	github.com/antonmedv/expr v1.15.3
	github.com/gfz-dev/gfz v0.0.0-00010101000000-000000000000
)
