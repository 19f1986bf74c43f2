/* notation-action.c - Crusader Kingdoms: an action's memory.  The reader
 * (notation.c) takes an action, its lists in the same block, from the
 * state's cache (ck_parse_alloc, action-cache.h), and ck_free_action gives
 * it back; legal.c makes actions with ck_action_new, their lists each
 * malloc'd.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "ck.h"

hg_action *ck_action_new(ck_kind kind, int seat)
{
	hg_action *a = hg_xmalloc(sizeof *a);
	ck_action_init(a, kind, seat);
	return a;
}

/* Out of line, the size is not known here: a call to the library's
 * memset, never `rep stos` (ck.h). */
void ck_clear_bytes(void *p, size_t n)
{
	memset(p, 0, n);
}

void ck_free_attack(ck_attack *a)
{
	free(a->with);
	free(a->resp);
	free(a->turned);
	for (int i = 0; i < 2; i++) {
		free(a->roll[i].dice);
		free(a->roll[i].mods);
	}
}

void ck_free_action(hg_action *a)
{
	if (!a)
		return;
	if (a->home) {		/* read from the tokens: kept for the next */
		hg_action_cache_give(a->home, a);
		return;
	}
	switch (a->kind) {
	case CK_ACT_DRAW:
		free(a->draw.v);
		break;
	case CK_ACT_INCURSION:
		free(a->inc.discards.v);
		break;
	case CK_ACT_PLAY:
		free(a->play.draws.v);
		free(a->play.takes.v);
		free(a->play.discards.v);
		ck_free_attack(&a->play.attack);
		break;
	case CK_ACT_ATTACK:
		ck_free_attack(&a->attack);
		break;
	case CK_ACT_REVEAL:
		free(a->rev.args.takes.v);
		free(a->rev.args.discards.v);
		ck_free_attack(&a->rev.attack);
		break;
	case CK_ACT_PASS:
	case CK_ACT_DISCARD:
		break;
	}
	free(a);
}
