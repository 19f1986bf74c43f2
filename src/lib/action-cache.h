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
 * the states it serves, a cache is used by one thread at a time.
 *
 * An action may want more than the cache's size: Crusader Kingdoms keeps
 * an action's lists in its block, after it, room for as many as its tokens
 * allow.  So each block carries its size, the spare is handed out only to
 * a take it is large enough for, and a block made for a larger take sets
 * the size of the blocks made after it (at least doubling it), so that
 * the spare soon fits every action of the game. */
#ifndef HERALD_ACTION_CACHE_H
#define HERALD_ACTION_CACHE_H

#include <stddef.h>
#include <stdlib.h>

#include "herald.h"

typedef struct hg_action_cache {
	unsigned refs;
	size_t size;		/* of a new block: the size given at _new, or
				   more after a larger take */
	void *spare;		/* the block given back last, or NULL */
} hg_action_cache;

/* What precedes each block in its allocation: its size, aligned as malloc
 * aligns, so that the block is too. */
typedef union hg_action_block_head {
	size_t size;
	max_align_t align;
} hg_action_block_head;

/* Short of memory inside a unit of work that reports it (internal.h), a
 * cache or a block cannot be had: hg_action_cache_new and _take return
 * NULL (the unit records it).  Elsewhere that aborts, as hg_x* do. */

/* A cache of blocks of `size` bytes, holding one reference (the caller's);
 * or NULL. */
hg_action_cache *hg_action_cache_new(size_t size);
/* Frees the cache and its spare block (hg_action_cache_unref's last step). */
void hg_action_cache_free(hg_action_cache *c);
/* hg_action_cache_take_size's slow path: frees the spare (too small for
 * `size`, or none), grows c->size to `size` if that is more, and returns a
 * new block of c->size, or NULL. */
void *hg_action_cache_new_block(hg_action_cache *c, size_t size);
/* Frees a block of the cache's (not given back). */
void hg_action_cache_free_block(void *block);

/* The size of a block taken from a cache: at least what was asked. */
static inline size_t hg_action_block_size(const void *block)
{
	return ((const hg_action_block_head *)block - 1)->size;
}

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

/* A block of at least `size` bytes, its contents undefined: the spare if
 * it is large enough, or a new one (or NULL).  The block holds a
 * reference to c until hg_action_cache_give. */
static inline void *hg_action_cache_take_size(hg_action_cache *c, size_t size)
{
	void *block = c->spare;
	if (block && hg_action_block_size(block) >= size)
		c->spare = NULL;
	else if (!(block = hg_action_cache_new_block(c, size)))
		return NULL;
	c->refs++;
	return block;
}

/* A block of the cache's size (hg_action_cache_take_size). */
static inline void *hg_action_cache_take(hg_action_cache *c)
{
	return hg_action_cache_take_size(c, c->size);
}

/* Gives back a block taken from c: kept as the spare (there is one at
 * most), or freed; then drops the block's reference. */
static inline void hg_action_cache_give(hg_action_cache *c, void *block)
{
	if (!c->spare)
		c->spare = block;
	else
		hg_action_cache_free_block(block);
	hg_action_cache_unref(c);
}

#endif
