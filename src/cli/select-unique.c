/* select-unique.c - the set of action sequences `herald select --unique`
 * has seen: their hashes (BLAKE2b, SELECT_HASH_BYTES each) in an open-
 * addressing table kept at most half full, so that memory grows with the
 * number of distinct games and not with the archive. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "select.h"

struct select_seen {
	unsigned char *slots;	/* cap slots of SELECT_HASH_BYTES each */
	unsigned char *used;	/* 1 per slot taken (a hash may be all zero) */
	size_t cap, n;
};

select_seen *select_seen_new(void)
{
	select_seen *t = cli_xcalloc(1, sizeof *t);
	t->cap = 1024;
	t->slots = cli_xcalloc(t->cap, SELECT_HASH_BYTES);
	t->used = cli_xcalloc(t->cap, 1);
	return t;
}

void select_seen_free(select_seen *t)
{
	if (!t)
		return;
	free(t->slots);
	free(t->used);
	free(t);
}

/* The hash is uniform: its first bytes are as good an index as any. */
static size_t slot_of(const unsigned char *h, size_t cap)
{
	size_t v;
	memcpy(&v, h, sizeof v);
	return v & (cap - 1);
}

/* 1 when put in, 0 when there already. */
static int put(select_seen *t, const unsigned char *h)
{
	size_t i = slot_of(h, t->cap);
	while (t->used[i]) {
		if (memcmp(t->slots + i * SELECT_HASH_BYTES, h, SELECT_HASH_BYTES) == 0)
			return 0;
		i = (i + 1) & (t->cap - 1);
	}
	t->used[i] = 1;
	memcpy(t->slots + i * SELECT_HASH_BYTES, h, SELECT_HASH_BYTES);
	t->n++;
	return 1;
}

static void grow(select_seen *t)
{
	select_seen old = *t;
	t->cap *= 2;
	t->n = 0;
	t->slots = cli_xcalloc(t->cap, SELECT_HASH_BYTES);
	t->used = cli_xcalloc(t->cap, 1);
	for (size_t i = 0; i < old.cap; i++)
		if (old.used[i])
			put(t, old.slots + i * SELECT_HASH_BYTES);
	free(old.slots);
	free(old.used);
}

int select_seen_add(select_seen *t, const unsigned char hash[SELECT_HASH_BYTES])
{
	if (2 * (t->n + 1) > t->cap)
		grow(t);
	return put(t, hash);
}
