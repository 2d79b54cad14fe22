module example.com/bugs/yaml3unknownevent

go 1.26.0

require (
	example.com/bugkit v0.0.0-00010101000000-000000000000
	github.com/gfz-dev/gfz v0.0.0-00010101000000-000000000000
	gopkg.in/yaml.v3 v3.0.0-20210107192922-496545a6307b
)

replace (
	example.com/bugkit => ../bugkit
	github.com/gfz-dev/gfz => ../../..
)
