# The two commands of the quick start: `make run` and `make test`.
BUILD_DIR ?= build
SCENE ?= scenes/dam_break_3d.json
JOBS ?= $(shell nproc)

.PHONY: all deps configure build run test bench microbench clean format

all: build

deps:
	@scripts/install-deps.sh

configure: deps
	@cmake -S . -B $(BUILD_DIR) -DCMAKE_BUILD_TYPE=Release > /dev/null

build: configure
	@cmake --build $(BUILD_DIR) -j $(JOBS)

run: build
	$(BUILD_DIR)/seiche run $(SCENE)

test: build
	ctest --test-dir $(BUILD_DIR) --output-on-failure --timeout 600

# Whole-scene benchmark (the issue-4 reference) and per-stage micro-benchmarks; not tests.
bench: build
	$(BUILD_DIR)/seiche bench scenes/bench/dam_break_reference_3d.json

microbench: build
	$(BUILD_DIR)/seiche_microbench

format:
	clang-format -i $$(git ls-files '*.cpp' '*.hpp')

clean:
	rm -rf $(BUILD_DIR)
