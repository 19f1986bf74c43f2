/* tagset.c - the tag names of one game as a hash set: open addressing,
 * linear probing, at most half full.  The hash is libsodium's SipHash
 * (crypto_shorthash) under a key drawn once per run, so a record cannot be
 * built to make every name collide. */
#include "config.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "internal.h"
#include "tagset.h"

static unsigned char hash_key[crypto_shorthash_KEYBYTES];
static pthread_once_t hash_key_once = PTHREAD_ONCE_INIT;

static void hash_key_make(void)
{
	/* Without a usable system RNG sodium_init() fails; randombytes_buf()
	 * then still gives bytes (or aborts), and a weaker key only costs
	 * time on a crafted record, never a wrong answer. */
	if (sodium_init() < 0) {
		/* as above: go on */
	}
	randombytes_buf(hash_key, sizeof hash_key);
}

static uint64_t hash_name(const char *name)
{
	pthread_once(&hash_key_once, hash_key_make);
	unsigned char h[crypto_shorthash_BYTES];
	crypto_shorthash(h, (const unsigned char *)name, strlen(name), hash_key);
	uint64_t v;
	memcpy(&v, h, sizeof v);
	return v;
}

void hg_tagset_init(hg_tagset *s)
{
	memset(s, 0, sizeof *s);
}

void hg_tagset_clear(hg_tagset *s)
{
	if (s->n)
		memset(s->slot, 0, s->cap * sizeof *s->slot);
	s->n = 0;
}

void hg_tagset_free(hg_tagset *s)
{
	free(s->slot);
	hg_tagset_init(s);
}

/* The slot holding `name`, or the free slot where it would go. */
static hg_tagset_slot *probe(const hg_tagset *s, const char *name, uint64_t hash)
{
	size_t mask = s->cap - 1;
	for (size_t i = (size_t)hash & mask;; i = (i + 1) & mask) {
		hg_tagset_slot *e = &s->slot[i];
		if (!e->name || (e->hash == hash && strcmp(e->name, name) == 0))
			return e;
	}
}

size_t hg_tagset_find(const hg_tagset *s, const char *name)
{
	if (s->n == 0)
		return HG_TAGSET_NONE;
	const hg_tagset_slot *e = probe(s, name, hash_name(name));
	return e->name ? e->index : HG_TAGSET_NONE;
}

/* Doubles the table, placing every name again: 0, or -1 when there is no
 * memory for it (the table as it was). */
static int grow(hg_tagset *s)
{
	hg_tagset old = *s;
	size_t cap = old.cap ? 2 * old.cap : 16;
	hg_tagset_slot *slot = hg_try_calloc(cap, sizeof *slot);
	if (!slot)
		return -1;
	s->cap = cap;
	s->slot = slot;
	for (size_t i = 0; i < old.cap; i++)
		if (old.slot[i].name)
			*probe(s, old.slot[i].name, old.slot[i].hash) = old.slot[i];
	free(old.slot);
	return 0;
}

size_t hg_tagset_add(hg_tagset *s, const char *name, size_t index)
{
	/* without memory the name is not added (its unit of work fails) */
	if (2 * (s->n + 1) > s->cap && grow(s) != 0)
		return HG_TAGSET_NONE;
	uint64_t hash = hash_name(name);
	hg_tagset_slot *e = probe(s, name, hash);
	if (e->name)
		return e->index;
	e->name = name;
	e->index = index;
	e->hash = hash;
	s->n++;
	return HG_TAGSET_NONE;
}
