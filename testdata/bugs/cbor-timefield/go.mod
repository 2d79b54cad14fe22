module example.com/bugs/cbortimefield

go 1.26.0

replace (
	example.com/bugkit => ../bugkit
	github.com/gfz-dev/gfz => ../../..
)

require (
	example.com/bugkit v0.0.0-00010101000000-000000000000
	github.com/fxamacker/cbor/v2 v2.9.0
	github.com/gfz-dev/gfz v0.0.0-00010101000000-000000000000
)

require github.com/x448/float16 v0.8.4 // indirect
