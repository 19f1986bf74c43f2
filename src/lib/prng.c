/* prng.c - the deterministic PRNG every game's chance follows from a Seed.
 * The algorithm is part of the notation (herald-notation(5), CHANCE); any
 * change to it changes every seeded record, so it never changes. */
#include "config.h"

#include <stdatomic.h>
#include <string.h>

#include <sodium.h>

#include "internal.h"

/* sodium_init() takes a lock each time: called once, not per stream.
 * A race only calls it twice, which it allows. */
static void sodium_ready(void)
{
	static atomic_int ready;
	if (!atomic_load_explicit(&ready, memory_order_acquire)) {
		if (sodium_init() < 0) {
			/* libsodium only fails here without a usable system
			 * RNG, which the deterministic stream never needs. */
		}
		atomic_store_explicit(&ready, 1, memory_order_release);
	}
}

/* A stream at its start: key = BLAKE2b-256(seed), block 0 next, none of
 * its `size` bytes of keystream left. */
static void stream_seed(unsigned char key[32], uint32_t *block, unsigned *used, unsigned size,
			const char *seed)
{
	sodium_ready();
	crypto_generichash(key, 32, (const unsigned char *)seed, strlen(seed), NULL, 0);
	*block = 0;
	*used = size;
}

/* The stream's next blocks, as many as fill its `size` bytes. */
static void stream_next(unsigned char *stream, unsigned size, const unsigned char key[32],
			uint32_t *block, unsigned *used)
{
	static const unsigned char zeros[64 * HG_PRNG_WIDE_BLOCKS];
	static const unsigned char nonce[crypto_stream_chacha20_ietf_NONCEBYTES];
	_Static_assert(sizeof((hg_prng *)0)->stream <= sizeof zeros &&
		       sizeof((hg_prng_wide *)0)->stream <= sizeof zeros,
		       "a stream's buffer is filled from the zeros");
	crypto_stream_chacha20_ietf_xor_ic(stream, zeros, size, nonce, *block, key);
	*block += size / 64;
	*used = 0;
}

void hg_prng_seed(hg_prng *r, const char *seed)
{
	stream_seed(r->key, &r->block, &r->used, sizeof r->stream, seed);
}

/* The stream's next block (hg_prng_word() reads it). */
void hg_prng_next_block(hg_prng *r)
{
	stream_next(r->stream, sizeof r->stream, r->key, &r->block, &r->used);
}

void hg_prng_wide_seed(hg_prng_wide *r, const char *seed)
{
	stream_seed(r->key, &r->block, &r->used, sizeof r->stream, seed);
}

void hg_prng_wide_next_blocks(hg_prng_wide *r)
{
	stream_next(r->stream, sizeof r->stream, r->key, &r->block, &r->used);
}

uint32_t hg_prng_u32(hg_prng *r)
{
	return hg_prng_word(r);
}

uint32_t hg_prng_below(hg_prng *r, uint32_t n)
{
	return hg_prng_below_inline(r, n);
}

unsigned hg_prng_die(hg_prng *r, unsigned sides)
{
	return hg_prng_die_inline(r, sides);
}

/* Swaps the n bytes (at most 8) at a and b.  Inline, each size the
 * caller names is a pair of plain loads and stores. */
static inline HG_ALWAYS_INLINE void swap_small(unsigned char *a, unsigned char *b, size_t n)
{
	unsigned char t[8];
	memcpy(t, a, n);
	memcpy(a, b, n);
	memcpy(b, t, n);
}

void hg_prng_shuffle(hg_prng *r, void *base, size_t n, size_t size)
{
	unsigned char *v = base;
	if (n < 2)
		return;
	for (size_t i = n - 1; i > 0; i--) {
		size_t j = hg_prng_below_inline(r, (uint32_t)(i + 1));
		unsigned char *a = v + i * size, *b = v + j * size;
		/* the games shuffle bytes and ints: swapped whole, no loop */
		switch (size) {
		case 1: swap_small(a, b, 1); continue;
		case 4: swap_small(a, b, 4); continue;
		case 8: swap_small(a, b, 8); continue;
		}
		for (size_t k = 0; j != i && k < size; k++) {
			unsigned char t = a[k];
			a[k] = b[k];
			b[k] = t;
		}
	}
}
