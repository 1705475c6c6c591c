# Convenience targets; the scripts are the source of truth.
.PHONY: build test install demo bench bench-quick
build:
	swift build
test:
	scripts/test
install:
	scripts/install
demo:
	scripts/demo
bench:
	scripts/bench
bench-quick:
	scripts/bench --quick
