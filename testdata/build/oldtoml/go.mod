module example.com/oldtoml

go 1.26.0

require (
	github.com/BurntSushi/toml v0.3.1
	github.com/gfz-dev/gfz v0.0.0-00010101000000-000000000000
)

replace github.com/gfz-dev/gfz => ../../..
