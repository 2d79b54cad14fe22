module example.com/formats

go 1.26.0

require (
	github.com/BurntSushi/toml v1.6.0
	github.com/gfz-dev/gfz v0.0.0-00010101000000-000000000000
	github.com/yuin/goldmark v1.8.7
	golang.org/x/net v0.55.0
	gopkg.in/yaml.v3 v3.0.1
)

replace github.com/gfz-dev/gfz => ../..
