# flash-mlir: the user interface. `make demo` and `make test` are all a new
# user needs on a fresh Debian 12 machine.

SHELL := /bin/bash
BUILD ?= build
LLVM_PREFIX ?= /usr/lib/llvm-22
JOBS ?= $(shell nproc)
PY := /usr/bin/python3
# apt packages the build, the tests and the demo need.
APT_PACKAGES := llvm-22-dev llvm-22-tools mlir-22-tools libmlir-22-dev \
  clang-22 lld-22 ninja-build cmake python3 python3-numpy python3-torch \
  spirv-tools libvulkan-dev mesa-vulkan-drivers libopenblas0-pthread \
  libomp-22-dev
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: all deps configure build test check demo docs bench-cpu fuzz clean

all: build

# Installs only what is missing (quick when everything is present).
deps:
	@missing=$$(for p in $(APT_PACKAGES); do \
	    dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q '^install ok installed' || echo $$p; \
	  done); \
	if [ -n "$$missing" ]; then \
	  echo "Installing:" $$missing; \
	  $(SUDO) apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing; \
	else echo "deps: all present"; fi

CMAKE_ARGS := -G Ninja -DMLIR_DIR=$(LLVM_PREFIX)/lib/cmake/mlir \
  -DLLVM_EXTERNAL_LIT=$(LLVM_PREFIX)/bin/lit -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
  -DLLVM_USE_LINKER=lld -DMLIR_LINK_MLIR_DYLIB=ON

$(BUILD)/build.ninja:
	cmake -S . -B $(BUILD) $(CMAKE_ARGS)

configure: $(BUILD)/build.ninja

build: configure
	ninja -C $(BUILD) -j $(JOBS)

# The whole suite; lit prints its summary; non-zero exit on any failure.
test: deps build
	ninja -C $(BUILD) check-flash

check: test

demo: deps build
	@PATH=$(LLVM_PREFIX)/bin:$$PATH $(PY) examples/demo.py --build $(BUILD)

docs: build
	ninja -C $(BUILD) flash-docs

bench-cpu: deps build
	@PATH=$(LLVM_PREFIX)/bin:$$PATH $(PY) bench/cpu/bench.py --build $(BUILD)

# Coverage-guided fuzzing of the pipelines (tools/flash-fuzz): our libraries
# with libFuzzer coverage, ASan and UBSan in their own build, seeded with
# every MLIR input of test/ once per pipeline; `make fuzz SECONDS=600`.
# Findings (crash-*, timeout-*, ...) land in $(FUZZ_BUILD)/findings/.
FUZZ_BUILD ?= build-fuzz
SECONDS ?= 60
$(FUZZ_BUILD)/build.ninja:
	cmake -S . -B $(FUZZ_BUILD) $(CMAKE_ARGS) -DFLASH_FUZZ=ON

fuzz: deps $(FUZZ_BUILD)/build.ninja
	ninja -C $(FUZZ_BUILD) -j $(JOBS) flash-fuzz
	$(PY) test/fuzz/make_corpus.py $(FUZZ_BUILD)/seeds
	mkdir -p $(FUZZ_BUILD)/corpus $(FUZZ_BUILD)/findings
	ASAN_OPTIONS=detect_leaks=0 $(FUZZ_BUILD)/bin/flash-fuzz \
	  -max_total_time=$(SECONDS) -timeout=30 -rss_limit_mb=8000 \
	  -max_len=65536 -print_final_stats=1 \
	  -artifact_prefix=$(FUZZ_BUILD)/findings/ \
	  $(FUZZ_BUILD)/corpus $(FUZZ_BUILD)/seeds

clean:
	rm -rf $(BUILD)
