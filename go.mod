module github.com/gohalide/gohalide

go 1.26

require github.com/google/go-cmp v0.7.0

require (
	github.com/google/uuid v1.1.1 // indirect
	github.com/pkg/errors v0.9.1 // indirect
	gorgonia.org/cu v0.9.6 // indirect
)
