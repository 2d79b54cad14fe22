module example.com/bugs/gqlparserscalarspread

go 1.26.0

replace (
	example.com/bugkit => ../bugkit
	github.com/gfz-dev/gfz => ../../..
)

require (
	example.com/bugkit v0.0.0-00010101000000-000000000000
	github.com/gfz-dev/gfz v0.0.0-00010101000000-000000000000
	github.com/vektah/gqlparser v0.0.0-20180823070515-d0fbd67c7fe9
)

require (
	github.com/agnivade/levenshtein v1.2.2 // indirect
	github.com/andreyvit/diff v0.0.0-20170406064948-c7f18ee00883 // indirect
	github.com/sergi/go-diff v1.4.0 // indirect
	github.com/stretchr/testify v1.12.1 // indirect
	gopkg.in/yaml.v2 v2.4.0 // indirect
)
