// SPDX-License-Identifier: GPL-2.0
/*
 * sha256-tests.c - SHA-256 (sha256.c), which keys the spatch result
 * cache, against the standard vectors of FIPS 180-4 and sha256sum.
 */
#include <string.h>

#include "sha256.h"
#include "unit.h"

static void check_vector(const char *msg, size_t repeat, const char *want)
{
	struct sha256 s;
	char hex[65];
	size_t i;

	sha256_init(&s);
	for (i = 0; i < repeat; i++)
		sha256_update(&s, msg, strlen(msg));
	sha256_hex(&s, hex);
	check_str(hex, want, "sha256 of a standard vector");
}

void test_sha256(void)
{
	check_vector("", 1,
		     "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
	check_vector("abc", 1,
		     "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
	check_vector("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", 1,
		     "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
	check_vector("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu", 1,
		     "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1");
	check_vector("a", 1000000,
		     "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
	/* 55, 56 and 64 bytes: the padding's edges */
	check_vector("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", 1,
		     "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318");
	check_vector("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", 1,
		     "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a");
	check_vector("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", 1,
		     "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb");
}
