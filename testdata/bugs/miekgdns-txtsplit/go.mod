module example.com/bugs/miekgdnstxtsplit

go 1.26.0

replace (
	example.com/bugkit => ../bugkit
	github.com/gfz-dev/gfz => ../../..
)

require (
	example.com/bugkit v0.0.0-00010101000000-000000000000
	github.com/gfz-dev/gfz v0.0.0-00010101000000-000000000000
	github.com/miekg/dns v1.1.59
)

require (
	golang.org/x/mod v0.16.0 // indirect
	golang.org/x/net v0.22.0 // indirect
	golang.org/x/sys v0.49.0 // indirect
	golang.org/x/tools v0.19.0 // indirect
)
