module example.com/bugs/gomarkdowncitation

go 1.26.0

require (
	example.com/bugkit v0.0.0-00010101000000-000000000000
	github.com/gfz-dev/gfz v0.0.0-00010101000000-000000000000
	github.com/gomarkdown/markdown v0.0.0-20230916125811-7478c230c7cd
)

replace (
	example.com/bugkit => ../bugkit
	github.com/gfz-dev/gfz => ../../..
)
