module example.com/bugkit

go 1.26.0

require github.com/gfz-dev/gfz v0.0.0-00010101000000-000000000000

replace github.com/gfz-dev/gfz => ../../..
