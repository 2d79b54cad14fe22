module example.com/bench

go 1.26.0

require github.com/gfz-dev/gfz v0.0.0

replace github.com/gfz-dev/gfz => ../../..
