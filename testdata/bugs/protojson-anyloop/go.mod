module example.com/bugs/protojsonanyloop

go 1.26.0

require (
	example.com/bugkit v0.0.0-00010101000000-000000000000
	github.com/gfz-dev/gfz v0.0.0-00010101000000-000000000000
	google.golang.org/protobuf v1.32.0
)

replace (
	example.com/bugkit => ../bugkit
	github.com/gfz-dev/gfz => ../../..
)
