/* action-cache.c - the spare action block of a game being read
 * (action-cache.h): what is not inline. */
#include "config.h"

#include <stdlib.h>

#include "action-cache.h"
#include "internal.h"

hg_action_cache *hg_action_cache_new(size_t size)
{
	hg_action_cache *c = hg_try_malloc(sizeof *c);
	if (!c)
		return NULL;
	c->refs = 1;
	c->size = size;
	c->spare = NULL;
	return c;
}

void hg_action_cache_free_block(void *block)
{
	if (block)
		free((hg_action_block_head *)block - 1);
}

void hg_action_cache_free(hg_action_cache *c)
{
	hg_action_cache_free_block(c->spare);
	free(c);
}

void *hg_action_cache_new_block(hg_action_cache *c, size_t size)
{
	hg_action_cache_free_block(c->spare);
	c->spare = NULL;
	/* doubling: a game whose actions grow makes a few blocks, not one
	 * for each larger action */
	if (size > c->size)
		c->size = size / 2 < c->size ? 2 * c->size : size;
	hg_action_block_head *head = hg_try_malloc(sizeof *head + c->size);
	if (!head)
		return NULL;
	head->size = c->size;
	return head + 1;
}
