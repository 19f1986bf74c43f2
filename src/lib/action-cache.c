/* action-cache.c - the spare action block of a game being read
 * (action-cache.h): what is not inline. */
#include "config.h"

#include <stdlib.h>

#include "action-cache.h"

hg_action_cache *hg_action_cache_new(size_t size)
{
	hg_action_cache *c = hg_xmalloc(sizeof *c);
	c->refs = 1;
	c->size = size;
	c->spare = NULL;
	return c;
}

void hg_action_cache_free(hg_action_cache *c)
{
	free(c->spare);
	free(c);
}
