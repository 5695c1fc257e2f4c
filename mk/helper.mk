# SPDX-License-Identifier: GPL-2.0
#
# The C helper, scripts/autofreeze: one binary from scripts/helper/*.c,
# libc and pthreads only.  Its unit tests are tests/helper/*.c; they link
# every helper source but main.c.
#
# The fuzz target needs clang with libFuzzer: on Debian bookworm the
# packages clang (clang-14) and libclang-rt-14-dev
# (apt-get install clang libclang-rt-14-dev).

HELPER_CC      ?= cc
HELPER_CFLAGS  ?= -O2 -Wall -Wextra -Werror -std=gnu11
HELPER_SAN     := -fsanitize=address,undefined -fno-omit-frame-pointer \
		  -fno-sanitize-recover=undefined -g
HELPER_SRCS    := $(sort $(wildcard $(TOP)/scripts/helper/*.c))
HELPER_HDRS    := $(wildcard $(TOP)/scripts/helper/*.h)
HELPER_LIBSRCS := $(filter-out %/main.c,$(HELPER_SRCS))
HELPER_TESTS   := $(sort $(wildcard $(TOP)/tests/helper/*.c))
HELPER_BIN     := $(TOP)/scripts/autofreeze
# the release the helper's --version names (one word: VERSION's own
# characters only reach the compiler)
HELPER_VERSION := $(shell tr -cd '0-9A-Za-z.+-' <$(TOP)/VERSION 2>/dev/null)
HELPER_DEFS    := -DAF_VERSION='"$(or $(HELPER_VERSION),unknown)"'
HELPER_SANDIR  := $(BUILD)/helper-san
HELPER_UNITDIR := $(BUILD)/helper

FUZZ_CC        ?= clang
FUZZ_SECONDS   ?= 60
# HELPER_CC, HELPER_CFLAGS and FUZZ_CC are command words, as CC and
# CFLAGS are; every other value reaches its recipe as environment.
export FUZZ_SECONDS
FUZZ_DIR       := $(BUILD)/fuzz
FUZZ_SRC       := $(TOP)/scripts/helper/fuzz/fuzz_lex.c
FUZZ_CORPUS    := $(TOP)/scripts/helper/fuzz/corpus

## helper: build the C helper scripts/autofreeze
.PHONY: helper
helper: $(HELPER_BIN)

# An installed or read-only copy (INSTALLED, Makefile) runs the helper it
# was installed with: a source newer than it (a touch, a copy that did not
# keep times) is no reason to link into a directory it cannot write.
ifeq ($(INSTALLED),)
$(HELPER_BIN): $(HELPER_SRCS) $(HELPER_HDRS) $(TOP)/VERSION
	$(HELPER_CC) $(HELPER_CFLAGS) $(HELPER_DEFS) -o $@ $(HELPER_SRCS) -lpthread
else
$(HELPER_BIN):
	@echo "helper: $@: missing from this read-only copy (make install, or make helper in a checkout)" >&2; exit 2
endif

# the helper and its unit tests with ASan and UBSan, for helper-check/t30
.PHONY: helper-san
helper-san: $(HELPER_SANDIR)/autofreeze $(HELPER_SANDIR)/unit-tests

$(HELPER_SANDIR)/autofreeze: $(HELPER_SRCS) $(HELPER_HDRS) $(TOP)/VERSION
	@mkdir -p $(@D)
	$(HELPER_CC) $(HELPER_CFLAGS) $(HELPER_SAN) $(HELPER_DEFS) -o $@ \
		$(HELPER_SRCS) -lpthread

$(HELPER_SANDIR)/unit-tests: $(HELPER_TESTS) $(HELPER_LIBSRCS) $(HELPER_HDRS)
	@mkdir -p $(@D)
	$(HELPER_CC) $(HELPER_CFLAGS) $(HELPER_SAN) \
		-I$(TOP)/scripts/helper -o $@ $(HELPER_TESTS) \
		$(HELPER_LIBSRCS) -lpthread

## helper-unit: build the helper's C unit tests (build/helper/unit-tests)
.PHONY: helper-unit
helper-unit: $(HELPER_UNITDIR)/unit-tests

$(HELPER_UNITDIR)/unit-tests: $(HELPER_TESTS) $(HELPER_LIBSRCS) $(HELPER_HDRS)
	@mkdir -p $(@D)
	$(HELPER_CC) $(HELPER_CFLAGS) -I$(TOP)/scripts/helper -o $@ \
		$(HELPER_TESTS) $(HELPER_LIBSRCS) -lpthread

## helper-check: build helper and unit tests with -fsanitize=address,undefined and run them
.PHONY: helper-check
helper-check: helper helper-san
	AF_HELPER=$(HELPER_SANDIR)/autofreeze bash $(TOP)/tests/run t30-helper.sh

## fuzz: fuzz the lexer with libFuzzer for FUZZ_SECONDS (default 60); fails on a crash
.PHONY: fuzz
fuzz: $(FUZZ_DIR)/fuzz_lex
	@mkdir -p $(FUZZ_DIR)/corpus $(FUZZ_DIR)/artifacts
	$(FUZZ_DIR)/fuzz_lex -max_total_time="$$FUZZ_SECONDS" \
		-max_len=16384 -timeout=10 -print_final_stats=1 \
		-artifact_prefix=$(FUZZ_DIR)/artifacts/ \
		$(FUZZ_DIR)/corpus $(FUZZ_CORPUS)

$(FUZZ_DIR)/fuzz_lex: $(FUZZ_SRC) $(HELPER_LIBSRCS) $(HELPER_HDRS)
	@mkdir -p $(@D)
	@command -v $(FUZZ_CC) >/dev/null || { echo "fuzz: $(FUZZ_CC) not" \
		"found: apt-get install clang libclang-rt-14-dev" >&2; exit 2; }
	$(FUZZ_CC) -O1 -g -std=gnu11 -Wall -Wextra -Werror \
		-fsanitize=fuzzer,address,undefined \
		-fno-sanitize-recover=undefined -fno-omit-frame-pointer \
		-I$(TOP)/scripts/helper -o $@ $(FUZZ_SRC) $(HELPER_LIBSRCS) \
		-lpthread
