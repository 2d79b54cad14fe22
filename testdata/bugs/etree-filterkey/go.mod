module example.com/bugs/etreefilterkey

go 1.26.0

replace (
	example.com/bugkit => ../bugkit
	github.com/gfz-dev/gfz => ../../..
)

require (
	example.com/bugkit v0.0.0-00010101000000-000000000000
	github.com/beevik/etree v1.6.0
	github.com/gfz-dev/gfz v0.0.0-00010101000000-000000000000
)
