# The two commands of the quick start: `make run` and `make test`.
BUILD_DIR ?= build
SCENE ?= scenes/dam_break_3d.json
JOBS ?= $(shell nproc)

.PHONY: all deps configure build run test test-asan test-tsan python-install-check blender-check bench bench-load microbench bench-mesh validate compare report-check readme-images readme-figures fuzz clean format

all: build

deps:
	@scripts/install-deps.sh

configure: deps
	@cmake -S . -B $(BUILD_DIR) -DCMAKE_BUILD_TYPE=Release > /dev/null

build: configure
	@cmake --build $(BUILD_DIR) -j $(JOBS)

run: build
	$(BUILD_DIR)/seiche run $(SCENE)

# As many tests at once as there are cores, each on one thread (tests/CMakeLists.txt).
test: build
	ctest --test-dir $(BUILD_DIR) --output-on-failure --timeout 600 -j $(JOBS)

# The documented Python install, from a fresh clone of HEAD into a new virtual environment, then
# `import seiche` outside the source tree (about 2 minutes: pip builds the module).
PY_CHECK ?= /tmp/seiche-python-install-check
python-install-check: deps
	rm -rf $(PY_CHECK) && git clone -q . $(PY_CHECK)/src
	/usr/bin/python3 -m venv --system-site-packages $(PY_CHECK)/venv
	cd $(PY_CHECK)/src && $(PY_CHECK)/venv/bin/pip install -q --no-build-isolation .
	cd / && $(PY_CHECK)/venv/bin/python -c "import seiche; w = seiche.World(seiche.load_scene('$(CURDIR)/scenes/dam_break_2d.json')); w.step(); print('seiche', seiche.__version__, 'from', seiche.__file__, 'steps:', w.steps)"

# Whole-scene benchmark (the issue-4 reference) and per-stage micro-benchmarks; not tests.
bench: build
	$(BUILD_DIR)/seiche bench scenes/bench/dam_break_reference_3d.json

# Speed on a busy machine: quiet, beside 1 and 3 CPU-bound competitors (issue 15).
bench-load: build
	tools/bench_load.sh $(BUILD_DIR)/seiche

microbench: build
	$(BUILD_DIR)/seiche_microbench

# Surface reconstruction of a 1M-particle dam-break frame (made once, about 2 minutes).
MESH_FRAME = out/bench_mesh_1m/frames/frame_000001.vtp
$(MESH_FRAME):
	$(BUILD_DIR)/seiche run scenes/bench/dam_break_1m_3d.json -o out/bench_mesh_1m -q \
		--end-time 0.1 --set time.frame_rate=10 --set output.vtk=true --set output.ply=false

bench-mesh: build
	@$(MAKE) --no-print-directory $(MESH_FRAME)
	$(BUILD_DIR)/seiche bench-mesh $(MESH_FRAME) --repeat 5

# Validation against experiments and analytic solutions (plots in out/validation/).
validate: build
	$(BUILD_DIR)/seiche validate

# Solver comparison report of the 2D dam break (out/compare_dam_break_2d/index.html), then the
# end-to-end check: the report opened in headless Chromium, every image loaded, a screenshot.
REPORT = out/compare_dam_break_2d
compare: build
	$(BUILD_DIR)/seiche compare scenes/dam_break_2d.json -o $(REPORT)

report-check: build
	@scripts/install-deps.sh --browser
	$(BUILD_DIR)/seiche compare scenes/dam_break_2d.json -o $(REPORT) -q
	tools/check_report.sh $(REPORT) pbf wcsph ddr dfsph

# The README's pictures of scenes (docs/images), made again by running each scene (~30 s).
readme-images: build
	tools/readme_images.sh $(BUILD_DIR)

readme-figures: build
	tools/readme_figures.sh $(BUILD_DIR)

# The Blender add-on (tools/blender/seiche_blender.py) on a short 3D run with surface meshes, in
# Blender's background mode: attributes, axes against Blender's own OBJ importer, frames.
BLENDER_RUN = out/blender_check
blender-check: build
	@scripts/install-deps.sh --blender
	$(BUILD_DIR)/seiche run scenes/dam_break_3d.json -o $(BLENDER_RUN) -q --end-time 0.2 --mesh \
		--set particle_radius=0.02 --set output.mesh_obj=true --overwrite \
		--set 'sinks=[{"min": [0, 0, 0], "max": [0.1, 0.1, 0.6]}]'
	blender --background --factory-startup --python tools/blender/check_import.py -- $(BLENDER_RUN)
	blender --background $(BLENDER_RUN)/check.blend -y --factory-startup \
		--python tools/blender/check_reopen.py -- $(BLENDER_RUN)
	rm -rf $(BLENDER_RUN)/blender_render
	blender --background $(BLENDER_RUN)/check.blend -y --factory-startup -a > /dev/null
	tools/blender/check_render.sh $(BLENDER_RUN)/blender_render
	$(BUILD_DIR)/seiche run scenes/floating_crates_3d.json -o $(BLENDER_RUN)_bodies -q --end-time 0.3 \
		--set particle_radius=0.02 --overwrite
	blender --background --factory-startup --python tools/blender/check_bodies.py -- $(BLENDER_RUN)_bodies

ASAN_CONFIGURE = cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSEICHE_NATIVE=OFF -DSEICHE_BUILD_TESTS=ON \
	-DCMAKE_CXX_FLAGS="-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer" > /dev/null

# Fuzzing. On an ASan + UBSan build (build-asan/): the regression corpus (tests/data/fuzz_corpus),
# 300 mutated scenes, 100 damaged run directories, 100 forged checkpoints, 100 damaged meshes and
# keyframe files, 40 viewer scripts (under Xvfb) through the seiche program, each run or refused
# within 60 s, no sanitizer report, no signal, no refused input that wrote, no resume that lost a
# frame; 200 cases through the Python module (built with the sanitizers too). Then libFuzzer
# (clang, build-libfuzzer/) on the scene loader and the frame readers, FUZZ_SECONDS each.
# CASES=... RUNDIRS=... CHECKPOINTS=... SIDEFILES=... SCRIPTS=... PYCASES=... SEED=... vary.
CASES ?= 300
RUNDIRS ?= 100
CHECKPOINTS ?= 100
SIDEFILES ?= 100
SCRIPTS ?= 40
PYCASES ?= 200
SEED ?= 1
FUZZ_SECONDS ?= 60
fuzz:
	@scripts/install-deps.sh --fuzz
	@$(ASAN_CONFIGURE)
	@cmake --build build-asan -j $(JOBS) --target seiche
	@cmake --build build-asan -j $(JOBS) --target seiche_python > /dev/null 2>&1 || \
		echo "fuzz: no Python module in build-asan (pybind11 missing?): its cases are skipped"
	/usr/bin/python3 tools/fuzz_scenes.py build-asan/seiche --cases $(CASES) --rundirs $(RUNDIRS) \
		--checkpoints $(CHECKPOINTS) --sidefiles $(SIDEFILES) --scripts $(SCRIPTS) \
		--python $(PYCASES) --python-module build-asan/python --corpus tests/data/fuzz_corpus --seed $(SEED)
	@CC=clang CXX=clang++ cmake -S . -B build-libfuzzer -DCMAKE_BUILD_TYPE=RelWithDebInfo \
		-DSEICHE_NATIVE=OFF -DSEICHE_BUILD_TESTS=OFF -DSEICHE_LIBFUZZER=ON \
		-DCMAKE_CXX_FLAGS="-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined -Wno-pass-failed" > /dev/null
	@cmake --build build-libfuzzer -j $(JOBS) --target fuzz_scene_loader fuzz_frame_reader
	@mkdir -p build-libfuzzer/corpus_loader build-libfuzzer/corpus_frames
	build-libfuzzer/fuzz_scene_loader -max_total_time=$(FUZZ_SECONDS) -max_len=65536 \
		-print_final_stats=1 build-libfuzzer/corpus_loader tests/data/fuzz_corpus scenes \
		scenes/validation scenes/bench
	build-libfuzzer/fuzz_frame_reader -max_total_time=$(FUZZ_SECONDS) -max_len=65536 \
		-print_final_stats=1 build-libfuzzer/corpus_frames tests/data/fuzz_frames

# The whole test suite on the ASan + UBSan build (build-asan/): any sanitizer report fails its
# test (UBSan does not recover). About 4× slower than `make test`.
test-asan: deps
	@$(ASAN_CONFIGURE)
	@cmake --build build-asan -j $(JOBS)
	@ASAN_OPTIONS=detect_leaks=1 ctest --test-dir build-asan --output-on-failure

# ThreadSanitizer on the viewer (its simulation thread, snapshots and commands, under Xvfb) and
# the parallel loops. Mesa's llvmpipe is not instrumented: its own races are suppressed
# (tools/tsan.supp), nothing of seiche's.
test-tsan: deps
	@cmake -S . -B build-tsan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSEICHE_NATIVE=OFF -DSEICHE_PYTHON=OFF -DSEICHE_TEST_THREADS=0 \
		-DCMAKE_CXX_FLAGS="-fsanitize=thread -fno-omit-frame-pointer" > /dev/null
	@cmake --build build-tsan -j $(JOBS) --target seiche seiche_tests
	TSAN_OPTIONS="suppressions=$(CURDIR)/tools/tsan.supp" ctest --test-dir build-tsan -R "Viewer|Parallel" --output-on-failure

format:
	clang-format -i $$(git ls-files '*.cpp' '*.hpp')

clean:
	rm -rf $(BUILD_DIR)
