module github.com/gohalide/gohalide

go 1.26
