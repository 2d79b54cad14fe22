module example.com/bugs/raymondniloptions

go 1.26.0

replace (
	example.com/bugkit => ../bugkit
	github.com/gfz-dev/gfz => ../../..
)

require (
	example.com/bugkit v0.0.0-00010101000000-000000000000
	github.com/aymerick/raymond v2.0.2+incompatible
	github.com/gfz-dev/gfz v0.0.0-00010101000000-000000000000
)

require gopkg.in/yaml.v2 v2.4.0 // indirect
