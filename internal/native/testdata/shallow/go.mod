module example.com/shallow

go 1.22
