/* XXH64, written from the xxHash specification (doc/xxhash_spec.md of
 * github.com/Cyan4973/xxHash, "XXH64 algorithm description").
 *
 * The sketches hash values with it because their state must be the same on
 * every host and in every release: bytes are read as little-endian lanes,
 * so the result does not depend on the machine, and the algorithm is
 * frozen. (tc_hash_bytes in tc_str.h is faster for the interning tables but
 * reads host-endian words and may change.) Its output passes SMHasher, so
 * its bits are fit for HyperLogLog. */
#ifndef TC_XXH64_H
#define TC_XXH64_H

#include <stddef.h>
#include <stdint.h>

uint64_t tc_xxh64(const void *p, size_t n, uint64_t seed);

#endif
