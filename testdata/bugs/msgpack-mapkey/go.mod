module example.com/bugs/msgpackmapkey

go 1.26.0

replace (
	example.com/bugkit => ../bugkit
	github.com/gfz-dev/gfz => ../../..
)

require (
	example.com/bugkit v0.0.0-00010101000000-000000000000
	github.com/gfz-dev/gfz v0.0.0-00010101000000-000000000000
	github.com/vmihailenco/msgpack/v4 v4.3.11
)

require (
	github.com/golang/protobuf v1.3.4 // indirect
	github.com/vmihailenco/tagparser v0.1.1 // indirect
	golang.org/x/net v0.0.0-20200301022130-244492dfa37a // indirect
	google.golang.org/appengine v1.6.5 // indirect
)
