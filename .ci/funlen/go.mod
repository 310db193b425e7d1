module pullcept-ci/funlen

go 1.26.7

require (
	github.com/ultraware/funlen v0.2.0
	golang.org/x/tools v0.52.0
)

require (
	golang.org/x/mod v0.42.0 // indirect
	golang.org/x/sync v0.24.0 // indirect
)
