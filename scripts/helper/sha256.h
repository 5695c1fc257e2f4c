/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sha256.h - SHA-256 (FIPS 180-4), for the spatch result cache's keys
 * and sums (cache.c), which must be what sha256sum prints.
 */
#ifndef AF_SHA256_H
#define AF_SHA256_H

#include <stddef.h>
#include <stdint.h>

struct sha256 {
	uint32_t h[8];
	uint64_t len;		/* bytes hashed so far */
	unsigned char buf[64];
	size_t nbuf;
};

void sha256_init(struct sha256 *s);
void sha256_update(struct sha256 *s, const void *data, size_t n);
/* The digest as 64 lowercase hex digits and a NUL, into HEX. */
void sha256_hex(struct sha256 *s, char hex[65]);
/* The digest of the file at PATH into HEX: 0, or -1 with errno. */
int sha256_file(const char *path, char hex[65]);

#endif /* AF_SHA256_H */
