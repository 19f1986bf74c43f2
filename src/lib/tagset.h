/* tagset.h - the tag names of one game as a hash set (internal): each tag
 * is looked up once as it is read, so a game's duplicate tags are found in
 * time linear in its tags, however many a hostile record holds. */
#ifndef HERALD_TAGSET_H
#define HERALD_TAGSET_H

#include <stddef.h>
#include <stdint.h>

/* What hg_tagset_find() and hg_tagset_add() return for "not there". */
#define HG_TAGSET_NONE ((size_t)-1)

typedef struct hg_tagset_slot {
	const char *name;	/* borrowed; NULL: the slot is free */
	size_t index;		/* what the caller gave with it */
	uint64_t hash;
} hg_tagset_slot;

typedef struct hg_tagset {
	hg_tagset_slot *slot;
	size_t cap;		/* a power of two, or 0 before the first add */
	size_t n;
} hg_tagset;

void hg_tagset_init(hg_tagset *s);
/* Empties the set, keeping its room for the next game. */
void hg_tagset_clear(hg_tagset *s);
void hg_tagset_free(hg_tagset *s);
/* The index added with `name`, or HG_TAGSET_NONE. */
size_t hg_tagset_find(const hg_tagset *s, const char *name);
/* Adds `name` (not copied: it must stay while the set holds it) with
 * `index`, and returns HG_TAGSET_NONE; or, when the name is there
 * already, adds nothing and returns the index it was added with.  Without
 * memory to grow, adds nothing and returns HG_TAGSET_NONE (the unit of
 * work, util.c, fails). */
size_t hg_tagset_add(hg_tagset *s, const char *name, size_t index);

#endif
