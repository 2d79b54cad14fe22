module example.com/bugs/inimissingref

go 1.26.0

replace (
	example.com/bugkit => ../bugkit
	github.com/gfz-dev/gfz => ../../..
)

require (
	example.com/bugkit v0.0.0-00010101000000-000000000000
	github.com/gfz-dev/gfz v0.0.0-00010101000000-000000000000
	gopkg.in/ini.v1 v1.48.0
)

require github.com/smartystreets/goconvey v1.8.1 // indirect
