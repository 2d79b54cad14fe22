module example.com/bugs/gjsonsquash

go 1.26.0

require (
	example.com/bugkit v0.0.0-00010101000000-000000000000
	github.com/gfz-dev/gfz v0.0.0-00010101000000-000000000000
	github.com/tidwall/gjson v1.6.3
)

require (
	github.com/tidwall/match v1.0.1 // indirect
	github.com/tidwall/pretty v1.0.2 // indirect
	golang.org/x/sys v0.49.0 // indirect
	golang.org/x/term v0.37.0 // indirect
)

replace (
	example.com/bugkit => ../bugkit
	github.com/gfz-dev/gfz => ../../..
)
