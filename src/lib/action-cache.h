/* action-cache.h - the spare action block of a game being read (internal).
 *
 * A replay parses an action, applies it and frees it, one after another,
 * and a malloc and a free for each cost as much as the parse of a short
 * action.  So the states of one game (the set-up and its clones) share an
 * hg_action_cache, which keeps the last block given back for the next
 * parse.  It is counted by references: each state holds one, and so does
 * each block taken from it, so that an action stays valid after the states
 * it was parsed in are freed (hg_apply_keep frees a state before its
 * action); the last reference frees the cache and its spare block.  Like
 * the states it serves, a cache is used by one thread at a time. */
#ifndef HERALD_ACTION_CACHE_H
#define HERALD_ACTION_CACHE_H

#include <stdlib.h>

#include "herald.h"

typedef struct hg_action_cache {
	unsigned refs;
	size_t size;		/* of every block */
	void *spare;		/* the block given back last, or NULL */
} hg_action_cache;

/* A cache of blocks of `size` bytes, holding one reference (the caller's). */
hg_action_cache *hg_action_cache_new(size_t size);
/* Frees the cache and its spare block (hg_action_cache_unref's last step). */
void hg_action_cache_free(hg_action_cache *c);

/* Another reference to c (a clone of the state that holds it). */
static inline hg_action_cache *hg_action_cache_ref(hg_action_cache *c)
{
	c->refs++;
	return c;
}

/* Drops a reference; the last frees the cache.  NULL does nothing. */
static inline void hg_action_cache_unref(hg_action_cache *c)
{
	if (c && --c->refs == 0)
		hg_action_cache_free(c);
}

/* A block of the cache's size, its contents undefined: the spare, or a new
 * one.  The block holds a reference to c until hg_action_cache_give. */
static inline void *hg_action_cache_take(hg_action_cache *c)
{
	void *block = c->spare;
	if (block)
		c->spare = NULL;
	else
		block = hg_xmalloc(c->size);
	c->refs++;
	return block;
}

/* Gives back a block taken from c: kept as the spare (there is one at
 * most), or freed; then drops the block's reference. */
static inline void hg_action_cache_give(hg_action_cache *c, void *block)
{
	if (!c->spare)
		c->spare = block;
	else
		free(block);
	hg_action_cache_unref(c);
}

#endif
