module example.com/bugs/starlarkrangestep

go 1.26.0

replace (
	example.com/bugkit => ../bugkit
	github.com/gfz-dev/gfz => ../../..
)

require (
	example.com/bugkit v0.0.0-00010101000000-000000000000
	github.com/gfz-dev/gfz v0.0.0-00010101000000-000000000000
	go.starlark.net v0.0.0-20260908191801-89a6a09411d5
)

require golang.org/x/sys v0.49.0 // indirect
