module example.com/bugs/gotoml2datetime

go 1.26.0

require (
	example.com/bugkit v0.0.0-00010101000000-000000000000
	github.com/gfz-dev/gfz v0.0.0-00010101000000-000000000000
	github.com/pelletier/go-toml/v2 v2.0.0-beta.3
)

require (
	golang.org/x/sys v0.49.0 // indirect
	golang.org/x/term v0.37.0 // indirect
)

replace (
	example.com/bugkit => ../bugkit
	github.com/gfz-dev/gfz => ../../..
)
