module example.com/formatmix

go 1.22
