module example.com/bugs/sdptimeunits

go 1.26.0

replace (
	example.com/bugkit => ../bugkit
	github.com/gfz-dev/gfz => ../../..
)

require (
	example.com/bugkit v0.0.0-00010101000000-000000000000
	github.com/gfz-dev/gfz v0.0.0-00010101000000-000000000000
	github.com/pion/sdp/v3 v3.0.6
)

require github.com/pion/randutil v0.1.0 // indirect
