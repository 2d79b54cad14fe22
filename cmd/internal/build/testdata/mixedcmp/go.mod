module example.com/mixedcmp

go 1.22
