module github.com/gfz-dev/gfz

go 1.22
