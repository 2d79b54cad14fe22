module example.com/bugs/gojafalsyloop

go 1.26.0

replace (
	example.com/bugkit => ../bugkit
	github.com/gfz-dev/gfz => ../../..
)

require (
	example.com/bugkit v0.0.0-00010101000000-000000000000
	github.com/dop251/goja v0.0.0-20201020185350-bf18fe8c88fa
	github.com/gfz-dev/gfz v0.0.0-00010101000000-000000000000
)

require (
	github.com/dlclark/regexp2 v1.12.0 // indirect
	github.com/go-sourcemap/sourcemap v2.1.4+incompatible // indirect
	golang.org/x/text v0.44.0 // indirect
	gopkg.in/yaml.v2 v2.4.0 // indirect
)
