module example.com/grimoire

go 1.22
