module example.com/bugs/cascadiaattrflag

go 1.26.0

replace (
	example.com/bugkit => ../bugkit
	github.com/gfz-dev/gfz => ../../..
)

require (
	example.com/bugkit v0.0.0-00010101000000-000000000000
	github.com/andybalholm/cascadia v1.3.0
	github.com/gfz-dev/gfz v0.0.0-00010101000000-000000000000
	golang.org/x/net v0.62.0
)
