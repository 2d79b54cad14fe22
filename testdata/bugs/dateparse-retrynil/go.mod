module example.com/bugs/dateparseretrynil

go 1.26.0

replace (
	example.com/bugkit => ../bugkit
	github.com/gfz-dev/gfz => ../../..
)

require (
	example.com/bugkit v0.0.0-00010101000000-000000000000
	github.com/araddon/dateparse v0.0.0-20210207001429-0eec95c9db7e
	github.com/gfz-dev/gfz v0.0.0-00010101000000-000000000000
)
