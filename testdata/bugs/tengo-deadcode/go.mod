module example.com/bugs/tengodeadcode

go 1.26.0

replace (
	example.com/bugkit => ../bugkit
	github.com/gfz-dev/gfz => ../../..
)

require (
	example.com/bugkit v0.0.0-00010101000000-000000000000
	github.com/d5/tengo/v2 v2.10.1
	github.com/gfz-dev/gfz v0.0.0-00010101000000-000000000000
)
